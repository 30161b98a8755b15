"""The table of Google conformance cases: which recording, which canonical request, which requirements.

The cases live in modules by subject (``google_cases_*``; what they share is in google_case_data);
this module gathers them in one order for tools/convert_gemini_corpus.py.
"""

from __future__ import annotations

from google_cases_answer_files import answer_file_cases
from google_cases_code_execution import code_execution_cases
from google_cases_edges import edge_cases
from google_cases_edges_calls import call_edge_cases
from google_cases_embed import embed_cases
from google_cases_embed_edges import embed_edge_cases
from google_cases_errors import error_cases
from google_cases_grounding import GROUNDING_CASES
from google_cases_grounding import VERTEX_CASES as VERTEX_GROUNDING_CASES
from google_cases_grounding_shapes import grounding_shape_cases
from google_cases_history import history_cases
from google_cases_history_replay import replay_edit_cases
from google_cases_mock import COUNT_CASES, FINISH_CASES, PARTIAL_ARGS_CASE, VERTEX_COUNT_CASES
from google_cases_mock_grounding import ENTERPRISE_CASES, MAPS_CASES
from google_cases_refused import refused_cases, setting_cases
from google_cases_refused_config import config_refused_cases
from google_cases_requests import request_cases
from google_cases_streamed_args import STREAMED_ARGS_CASES
from google_cases_thinking_bounds import thinking_bound_cases
from google_cases_tools import TOOL_CASES

#: The Gemini API cases.
CASES = (
    request_cases()
    + code_execution_cases()
    + error_cases()
    + embed_cases()
    + GROUNDING_CASES
    + TOOL_CASES
    + COUNT_CASES
    + FINISH_CASES
    + MAPS_CASES
    + refused_cases()
    + config_refused_cases()
    + setting_cases()
    + grounding_shape_cases()
    + edge_cases()
    + call_edge_cases()
    + history_cases()
    + replay_edit_cases()
    + embed_edge_cases()
    + thinking_bound_cases()
    + answer_file_cases()
)
#: The Vertex AI cases.
VERTEX_CASES = [
    *VERTEX_GROUNDING_CASES,
    *VERTEX_COUNT_CASES,
    *ENTERPRISE_CASES,
    PARTIAL_ARGS_CASE,
    *STREAMED_ARGS_CASES,
]
__all__ = ["CASES", "VERTEX_CASES"]
