"""What every call runs under, HTTP or not: the retry policy (:mod:`.retry`) and the guard that turns
a decoder's bare Python error into a typed one (:mod:`.decode_guard`)."""
