"""What every call runs under, HTTP or not: the retry policy (:mod:`.retry`), the guard that turns a
decoder's bare Python error into a typed one (:mod:`.decode_guard`), and the OpenTelemetry spans and
metrics of a call (:mod:`.otel`, with the GenAI attributes of :mod:`.genai_attributes`), which take
data (a provider and a model name), never the model."""
