"""Hypothesis strategies from a pydantic model's JSON schema, for fuzzing command bodies.

Mostly valid bodies (so the rules behind validation get exercised), with hostile values mixed
in: real ids where a string goes, huge and non-finite numbers, markup, empty and long text, lone
surrogates (valid JSON, "\\ud800", but not encodable text) and NUL.
Only the JSON-schema keywords pydantic emits for our bodies are understood."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

HOSTILE_TEXT = ["", " ", "<script>alert(1)</script>", "\x00", "🤖" * 30, "a" * 5000, "NaN", "-1",
                "\u202eevil", "red", "white", "black", "Melee", "Shoot", "../../etc/passwd",
                "a\ud800b", "\udfff", "Ada\x00"]
HUGE_NUMBERS = [2**31, 2**63, 2**64 + 1, 10**30, -(2**70), -(10**30)]
HOSTILE_NUMBERS = [-1, 0, *HUGE_NUMBERS, 1e308, -1e308, 0.5, float("nan"), float("inf"), float("-inf")]

wild_json = st.recursive(
    st.none() | st.booleans() | st.sampled_from(HOSTILE_NUMBERS) | st.sampled_from(HOSTILE_TEXT)
    | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def from_schema(schema: dict[str, Any], words: list[str], root: dict[str, Any] | None = None):
    """Values valid for `schema` (mostly): strings are drawn from `words` (e.g. the game's ids)
    or hostile text; numbers keep to the schema's bounds."""
    root = root or schema
    if "$ref" in schema:
        return from_schema(root["$defs"][schema["$ref"].rsplit("/", 1)[-1]], words, root)
    if "anyOf" in schema:
        return st.one_of([from_schema(s, words, root) for s in schema["anyOf"]])
    if "enum" in schema or "const" in schema:
        return st.sampled_from(schema.get("enum") or [schema["const"]])
    return _by_type(schema, words, root)


def _by_type(schema: dict[str, Any], words: list[str], root: dict[str, Any]):
    kind = schema.get("type")
    low, high = schema.get("minimum"), schema.get("maximum")
    if kind == "integer":  # now and then one no database column holds
        fits = st.integers(low, high)
        return st.one_of(fits, fits, fits, st.sampled_from(HUGE_NUMBERS))
    if kind == "number":
        return st.integers(low, high) | st.floats(low, high, allow_nan=False, allow_infinity=False)
    if kind == "string":
        text = st.sampled_from(words) if words else st.nothing()
        return text | st.sampled_from(HOSTILE_TEXT) | st.text(max_size=schema.get("maxLength", 30))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {}), words, root),
                        max_size=min(schema.get("maxItems", 6), 6))
    if kind == "object":
        return _object(schema, words, root)
    return wild_json


def _object(schema: dict[str, Any], words: list[str], root: dict[str, Any]):
    properties = schema.get("properties", {})
    if properties:
        required = set(schema.get("required", []))
        parts = {k: from_schema(v, words, root) for k, v in properties.items()}
        return st.fixed_dictionaries({k: v for k, v in parts.items() if k in required},
                                     optional={k: v for k, v in parts.items() if k not in required})
    values = schema.get("additionalProperties")
    if isinstance(values, dict):
        keys = st.sampled_from(words) | st.sampled_from(HOSTILE_TEXT) if words else st.sampled_from(HOSTILE_TEXT)
        return st.dictionaries(keys, from_schema(values, words, root), max_size=4)
    return st.dictionaries(st.text(max_size=8), wild_json, max_size=3)


@st.composite
def spoiled(draw, body: st.SearchStrategy) -> dict[str, Any]:
    """A valid-looking body with one field replaced by (or added as) a hostile value."""
    value = dict(draw(body))
    key = draw(st.sampled_from(sorted(value) or ["extra"]) | st.text(max_size=8))
    value[key] = draw(wild_json)
    return value
