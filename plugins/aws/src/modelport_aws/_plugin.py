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
    """What a replay signs with: a region and keys of the right shape that no account holds (built
    here at run time: no credential-looking literal in the source). Requests are signed with SigV4
    as for real, so the replays run the signing path."""
    return {
        "region": "us-east-1",
        "aws_access_key_id": "AKIA" + "REPLAY" + "0" * 10,
        "aws_secret_access_key": "replay/" + "x" * 33,
    }


@hookimpl
def modelport_conformance_suites(register: Any) -> None:  # SuiteRegistrar: conformance sits above
    """Register the recorded cases shipped in ``cassettes/bedrock/``."""
    from importlib.resources import files

    from ._stream import merge_frames
    from .provider import BedrockProvider

    folder = files("modelport_aws") / "cassettes" / BedrockProvider.id
    register(
        BedrockProvider.id,
        folder,
        merge_frames=merge_frames,
        options=replay_options(),
        credential_env=("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"),
        mutation_exclude=("__init__.py", "_plugin.py"),
    )
