"""OpenAI's built-in Responses API tools as modelport provider tools, validated strictly before any
request.

``openai.web_search``, ``openai.file_search``, ``openai.code_interpreter``,
``openai.image_generation`` and ``openai.mcp`` (a remote MCP server OpenAI calls) run on OpenAI's
side, on the ``openai-responses`` provider only (Chat Completions has no built-in tools). A request
names them as ``{"type": "provider", "id": "openai.web_search", "args": {...}}`` (or the builders
here); each is sent as the Responses tool of its ``type`` with its arguments (``{"type":
"web_search", "search_context_size": "low"}``). Their calls come back as provider-executed tool call
and result parts, generated images as file parts, and ``url_citation`` / ``file_citation``
annotations as the result's sources and citations
(:mod:`modelport_openai._responses_items`).

Reference: https://platform.openai.com/docs/api-reference/responses/create#responses_create-tools
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr

from modelport.provider_tools import ProviderToolSpec
from modelport.tools.args import ApproximateLocation as UserLocation
from modelport.tools.args import DomainName, HttpHeaders, ToolArgs, header_secrets
from modelport.types import ProviderTool

__all__ = [
    "PROVIDER_TOOL_SPECS",
    "AutoContainer",
    "CodeInterpreterArgs",
    "ComparisonFilter",
    "CompoundFilter",
    "FileSearchArgs",
    "ImageGenerationArgs",
    "McpArgs",
    "RankingOptions",
    "UserLocation",
    "WebSearchArgs",
    "WebSearchFilters",
    "body_secrets",
    "code_interpreter",
    "file_search",
    "image_generation",
    "mcp",
    "tool_to_wire",
    "web_search",
]


class WebSearchFilters(ToolArgs):
    """Limits of a web search: the only domains it may search (subdomains included), host names
    without a scheme (``"openai.com"``, not ``"https://openai.com/"``), at most 100."""

    allowed_domains: list[DomainName] = Field(min_length=1, max_length=100)


class WebSearchArgs(ToolArgs):
    """Arguments of ``openai.web_search``; ``{}`` keeps OpenAI's defaults."""

    version: Literal["web_search", "web_search_2025_08_26"] = "web_search"
    """The tool ``type`` sent (``web_search_preview`` takes no domain filters: not offered)."""
    search_context_size: Literal["low", "medium", "high"] | None = None
    user_location: UserLocation | None = None
    filters: WebSearchFilters | None = None


class ComparisonFilter(ToolArgs):
    """Compares the file attribute ``key`` with ``value``."""

    type: Literal["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"]
    key: str = Field(min_length=1)
    value: str | int | float | bool | list[str | int | float]


class CompoundFilter(ToolArgs):
    """Combines filters with ``and`` / ``or``."""

    type: Literal["and", "or"]
    filters: list[ComparisonFilter | CompoundFilter] = Field(min_length=1)


class RankingOptions(ToolArgs):
    """How file-search results are ranked and which are kept."""

    ranker: Literal["auto", "default-2024-11-15"] | None = None
    score_threshold: float | None = Field(default=None, ge=0, le=1)


class FileSearchArgs(ToolArgs):
    """Arguments of ``openai.file_search``: the vector stores to search are required."""

    vector_store_ids: list[str] = Field(min_length=1)
    max_num_results: int | None = Field(default=None, ge=1, le=50)
    filters: ComparisonFilter | CompoundFilter | None = None
    ranking_options: RankingOptions | None = None


class AutoContainer(ToolArgs):
    """A new container, made for the call, with these files in it."""

    type: Literal["auto"] = "auto"
    file_ids: list[str] | None = None
    memory_limit: Literal["1g", "4g", "16g", "64g"] | None = None


class CodeInterpreterArgs(ToolArgs):
    """Arguments of ``openai.code_interpreter``: the container (an existing container's id, or a new
    one, the default)."""

    container: str | AutoContainer = Field(default_factory=AutoContainer)


class ImageGenerationArgs(ToolArgs):
    """Arguments of ``openai.image_generation``; ``{}`` keeps OpenAI's defaults."""

    model: str | None = None
    size: Literal["1024x1024", "1024x1536", "1536x1024", "auto"] | None = None
    quality: Literal["low", "medium", "high", "auto"] | None = None
    output_format: Literal["png", "webp", "jpeg"] | None = None
    output_compression: int | None = Field(default=None, ge=0, le=100)
    background: Literal["transparent", "opaque", "auto"] | None = None
    moderation: Literal["auto", "low"] | None = None
    input_fidelity: Literal["high", "low"] | None = None
    partial_images: int | None = Field(default=None, ge=0, le=3)


class McpArgs(ToolArgs):
    """Arguments of ``openai.mcp``: a remote MCP server OpenAI lists and calls itself (its calls and
    tool lists come back as provider-executed parts). ``headers`` are credentials: each value a
    :class:`pydantic.SecretStr` that no ``repr`` shows, revealed only into the body sent and scrubbed
    by the kit from every error and kept answer."""

    server_label: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    server_url: str = Field(pattern=r"^https?://[^\s]+$")
    server_description: str | None = Field(default=None, min_length=1)
    allowed_tools: list[str] | None = Field(default=None, min_length=1)
    headers: HttpHeaders | None = None
    require_approval: Literal["always", "never"] | None = None
    """``"always"``: each call comes back as an ``mcp_approval_request``, answered by the tool
    loop's ``approve=`` hook."""


PROVIDER_TOOL_SPECS: tuple[ProviderToolSpec, ...] = (
    ProviderToolSpec(
        "openai.web_search", "web_search", "openai", WebSearchArgs, "Web search, run by OpenAI."
    ),
    ProviderToolSpec(
        "openai.file_search", "file_search", "openai", FileSearchArgs, "Searches your vector stores."
    ),
    ProviderToolSpec(
        "openai.code_interpreter",
        "code_interpreter",
        "openai",
        CodeInterpreterArgs,
        "Runs Python in a sandboxed container.",
    ),
    ProviderToolSpec(
        "openai.image_generation", "image_generation", "openai", ImageGenerationArgs, "Generates images."
    ),
    ProviderToolSpec("openai.mcp", "mcp", "openai", McpArgs, "A remote MCP server's tools, run by OpenAI."),
)
"""Every OpenAI provider-tool spec, registered by the plugin."""

_BY_ID = {spec.id: spec for spec in PROVIDER_TOOL_SPECS}


def tool_to_wire(tool: ProviderTool) -> dict[str, Any]:
    """The Responses tool for a (validated) provider tool: its ``type``, then its arguments."""
    spec = _BY_ID[tool.id]
    args = spec.args_of(tool)
    given = args.model_dump(exclude_none=True)
    kind = given.pop("version", spec.name)
    if isinstance(args, McpArgs) and args.headers:
        given["headers"] = {name: value.get_secret_value() for name, value in args.headers.items()}
    return {"type": kind, **given}


def body_secrets(body: dict[str, Any]) -> list[str]:
    """The credentials a Responses body's ``mcp`` tools carry (their ``headers``), for the kit to
    scrub."""
    found: list[str] = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("type") == "mcp" and isinstance(tool.get("headers"), dict):
            found += header_secrets({k: v for k, v in tool["headers"].items() if isinstance(v, str)})
    return found


def web_search(**args: Any) -> ProviderTool:
    """``openai.web_search`` with ``args`` (see :class:`WebSearchArgs`)."""
    return ProviderTool(id="openai.web_search", name="web_search", args=args)


def file_search(**args: Any) -> ProviderTool:
    """``openai.file_search`` with ``args`` (see :class:`FileSearchArgs`)."""
    return ProviderTool(id="openai.file_search", name="file_search", args=args)


def code_interpreter(**args: Any) -> ProviderTool:
    """``openai.code_interpreter`` with ``args`` (see :class:`CodeInterpreterArgs`)."""
    return ProviderTool(id="openai.code_interpreter", name="code_interpreter", args=args)


def image_generation(**args: Any) -> ProviderTool:
    """``openai.image_generation`` with ``args`` (see :class:`ImageGenerationArgs`)."""
    return ProviderTool(id="openai.image_generation", name="image_generation", args=args)


def mcp(**args: Any) -> ProviderTool:
    """``openai.mcp`` with ``args`` (see :class:`McpArgs`); header values given as strings are kept
    as :class:`pydantic.SecretStr`."""
    headers = args.get("headers")
    if isinstance(headers, dict):
        args = {
            **args,
            "headers": {k: v if isinstance(v, SecretStr) else SecretStr(v) for k, v in headers.items()},
        }
    return ProviderTool(id="openai.mcp", name="mcp", args=args)
