"""A catalogue file's or manifest's shape, judged by its JSON Schema in ``solver/schemas/``.

The schemas are the one statement of what the files may hold (``catalogue.schema.json``,
``manifest.schema.json``); this is the subset of JSON Schema (draft 2020-12) they use, so
that reading a catalogue checks what the schema says without a third-party validator. A
schema keyword this reader does not know is a RuntimeError (a schema edited beyond it,
caught by the tests), never a silent pass. What a schema cannot say (tier thresholds in
increasing order) is checked here too.
"""

import json
import math
import re
from functools import cache
from pathlib import Path

from solver.errors import clipped
from solver.results.limits import is_number

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
# Keywords that state nothing to check.
ANNOTATIONS = {
    "$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default", "format",
    "deprecated", "readOnly", "writeOnly",
}  # fmt: skip
JSON_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
    "number": (int, float),
    "integer": int,
}


@cache
def schema(name: str) -> dict:
    """The JSON Schema ``solver/schemas/<name>.schema.json``."""
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def shape_problem(document: dict, name: str) -> str | None:
    """Why ``document`` does not fit schema ``name`` (``catalogue``, ``manifest``): the first
    place that does not, as a JSON path and a reason; None when it fits. A catalogue's
    entries and a manifest's records are left to ``entry_shape_problem`` and
    ``record_shape_problem``, which name each."""
    root = schema(name)
    header = document | ({"entries": []} if name == "catalogue" else {"files": []})
    return problem(header, root, root, "$") or thresholds_problem(document)


def record_shape_problem(record: dict) -> str | None:
    """Why a manifest record does not fit its schema, or None."""
    root = schema("manifest")
    return problem(record, root["properties"]["files"]["items"], root, "record")


def entry_shape_problem(entry: dict) -> str | None:
    """Why a catalogue entry does not fit its schema, or None."""
    root = schema("catalogue")
    return problem(entry, root["$defs"]["entry"], root, "entry")


def problem(value, node: dict, root: dict, where: str) -> str | None:
    for keyword, expected in node.items():
        if keyword in ANNOTATIONS:
            continue
        check = KEYWORDS.get(keyword)
        if check is None:
            raise RuntimeError(f"schema keyword {keyword!r} is not one solver/catalogue/shape.py reads")
        found = check(value, expected, node, root, where)
        if found:
            return found
    return None


def is_type(value, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("number", "integer"):
        return False
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    if kind == "number" and isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, JSON_TYPES[kind])


def shown(value) -> str:
    return clipped(json.dumps(value, allow_nan=True) if not isinstance(value, str) else repr(value), 60)


def check_type(value, kind, node, root, where):
    kinds = kind if isinstance(kind, list) else [kind]
    return None if any(is_type(value, one) for one in kinds) else f"{where} is {shown(value)}, not {kind}"


def check_enum(value, choices, node, root, where):
    same = any(value == choice and type(value) is type(choice) for choice in choices)
    return None if same else f"{where} is {shown(value)}, not one of {', '.join(map(shown, choices))}"


def check_const(value, expected, node, root, where):
    return check_enum(value, [expected], node, root, where)


def check_required(value, names, node, root, where):
    if not isinstance(value, dict):
        return None
    missing = [name for name in names if name not in value]
    return f"{where} lacks {', '.join(missing)}" if missing else None


def check_properties(value, properties, node, root, where):
    if not isinstance(value, dict):
        return None
    for key, item in value.items():
        if key in properties:
            found = problem(item, properties[key], root, f"{where}.{key}")
        elif node.get("additionalProperties") is False:
            found = f"{where} has a key {shown(key)} the schema does not allow"
        elif isinstance(node.get("additionalProperties"), dict):
            found = problem(item, node["additionalProperties"], root, f"{where}.{key}")
        else:
            found = None
        if found:
            return found
    return None


def check_additional(value, expected, node, root, where):
    if "properties" in node:
        return None  # judged with the properties
    return check_properties(value, {}, node, root, where)


def check_items(value, items, node, root, where):
    if not isinstance(value, list):
        return None
    start = len(node.get("prefixItems", ()))
    for index, item in enumerate(value[start:], start=start):
        found = problem(item, items, root, f"{where}[{index}]")
        if found:
            return found
    return None


def check_prefix_items(value, prefix, node, root, where):
    if not isinstance(value, list):
        return None
    for index, (item, item_schema) in enumerate(zip(value, prefix)):
        found = problem(item, item_schema, root, f"{where}[{index}]")
        if found:
            return found
    return None


def check_min_items(value, least, node, root, where):
    too_few = isinstance(value, list) and len(value) < least
    return f"{where} has {len(value)} items, fewer than {least}" if too_few else None


def check_max_items(value, most, node, root, where):
    too_many = isinstance(value, list) and len(value) > most
    return f"{where} has {len(value)} items, more than {most}" if too_many else None


def check_unique(value, unique, node, root, where):
    if not (unique and isinstance(value, list)):
        return None
    texts = [json.dumps(item, sort_keys=True) for item in value]
    return f"{where} repeats an item" if len(set(texts)) != len(texts) else None


def check_pattern(value, pattern, node, root, where):
    fits = not isinstance(value, str) or re.search(pattern, value)
    return None if fits else f"{where} is {shown(value)}, not of the form {pattern}"


def check_max_length(value, most, node, root, where):
    too_long = isinstance(value, str) and len(value) > most
    return f"{where} is {len(value):,} characters long, more than {most}" if too_long else None


def check_minimum(value, least, node, root, where):
    return f"{where} is {shown(value)}, below {least}" if is_number(value) and value < least else None


def check_maximum(value, most, node, root, where):
    return f"{where} is {shown(value)}, above {most}" if is_number(value) and value > most else None


def check_exclusive_minimum(value, bound, node, root, where):
    low = is_number(value) and value <= bound
    return f"{where} is {shown(value)}, not above {bound}" if low else None


def check_ref(value, reference, node, root, where):
    target = root
    for part in reference.removeprefix("#/").split("/"):
        target = target[part]
    return problem(value, target, root, where)


def check_any_of(value, choices, node, root, where):
    fits = any(problem(value, choice, root, where) is None for choice in choices)
    return None if fits else f"{where} fits none of its {len(choices)} forms"


def check_one_of(value, choices, node, root, where):
    fitting = [choice for choice in choices if problem(value, choice, root, where) is None]
    return None if len(fitting) == 1 else f"{where} fits {len(fitting)} of its {len(choices)} forms, not one"


def check_dependent_required(value, dependencies, node, root, where):
    if not isinstance(value, dict):
        return None
    for key, needed in dependencies.items():
        missing = [name for name in needed if key in value and name not in value]
        if missing:
            return f"{where} has {key} without {', '.join(missing)}"
    return None


KEYWORDS = {
    "type": check_type,
    "enum": check_enum,
    "const": check_const,
    "required": check_required,
    "properties": check_properties,
    "additionalProperties": check_additional,
    "items": check_items,
    "prefixItems": check_prefix_items,
    "minItems": check_min_items,
    "maxItems": check_max_items,
    "uniqueItems": check_unique,
    "pattern": check_pattern,
    "maxLength": check_max_length,
    "minimum": check_minimum,
    "maximum": check_maximum,
    "exclusiveMinimum": check_exclusive_minimum,
    "$ref": check_ref,
    "oneOf": check_one_of,
    "anyOf": check_any_of,
    "dependentRequired": check_dependent_required,
}


def thresholds_problem(document: dict) -> str | None:
    """Tier thresholds (of a catalogue's difficulty model and its tiering) not increasing."""
    model = document.get("difficulty_model")
    for where, holder in (
        ("difficulty_model", model),
        ("difficulty_model.tiering", (model or {}).get("tiering")),
    ):
        thresholds = (holder or {}).get("thresholds")
        if thresholds is not None and not thresholds[0] < thresholds[1]:
            return f"$.{where}.thresholds {shown(thresholds)} do not increase (easy below normal below hard)"
    return None
