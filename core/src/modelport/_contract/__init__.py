"""The contract's records, at the bottom of the core: they import nothing above them, not even for
types. :mod:`modelport.types` and :mod:`modelport.events` are their public faces.

- :mod:`.content`: parts, messages and tools;
- :mod:`.results`: what a generation produced (results, usage, warnings, citations);
- :mod:`.request`: a request and the keywords a call takes;
- :mod:`.event_types`: the stream events;
- :mod:`.steps`: one step of a tool loop;
- :mod:`.replay`: a message without its reasoning state.
"""
