"""How a key is found in text, behind :mod:`modelport.secrets`: the forms a key takes once encoded
(:mod:`.key_forms`) and the escapes it may sit behind (:mod:`.escapes`)."""
