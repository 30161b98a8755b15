"""The ``modelport-aws`` plugin: registers ``bedrock`` and its recorded conformance cases. Found
through the ``modelport`` entry-point group."""

from __future__ import annotations

from typing import Any

from modelport.hookspecs import ProviderRegistrar, hookimpl


@hookimpl
def modelport_register_providers(register: ProviderRegistrar) -> None:
    """Register ``bedrock``."""
    from .provider import BedrockProvider

    register(BedrockProvider)


def replay_options() -> dict[str, Any]:
    """What a replay (and a recording) adds to ``get_model``: the region the cassettes were
    recorded in. The replay's key arrives as ``api_key=`` and is sent as a Bedrock API key
    (``Authorization: Bearer``); a recording reads ``AWS_BEARER_TOKEN_BEDROCK``, else signs with
    SigV4 from the standard chain. The SigV4 path is tested on the same recordings in tests/aws."""
    return {"region": "us-east-1"}


@hookimpl
def modelport_conformance_suites(register: Any) -> None:  # SuiteRegistrar: conformance sits above
    """Register the recorded cases shipped in ``cassettes/bedrock/``."""
    from importlib.resources import files

    from ._frames import merge_frames
    from .provider import BedrockProvider

    folder = files("modelport_aws") / "cassettes" / BedrockProvider.id
    register(
        BedrockProvider.id,
        folder,
        merge_frames=merge_frames,
        options=replay_options(),
        credential_env=("AWS_BEARER_TOKEN_BEDROCK",),
        mutation_exclude=("__init__.py", "_plugin.py"),
    )
