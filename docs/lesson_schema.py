"""MkDocs hook: the lesson file's fields and presence rules, written from its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["FIELDS", "NEEDS", "RULES", "SCHEMA", "fields", "needs", "on_page_markdown", "rules"]

SCHEMA = Path(__file__).resolve().parent.parent / "attention_core" / "lesson.schema.json"
"""The schema `python -m attention_core.schema` generates; the one source of these tables."""

FIELDS, NEEDS, RULES = "<!-- schema: fields -->", "<!-- schema: needs -->", "<!-- schema: rules -->"
"""Where a page asks for the fields table, the steps' needs and the other rules of presence."""

Schema = dict[str, Any]

_INDEX = {"heads": "h"}
"""The letter a table of tables is counted by in the docs and in messages: `heads[h]`."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _limits(node: Schema) -> str:
    """What a value may be, in words, from the schema's own keywords."""
    if "enum" in node:
        return ", ".join(f'`"{value}"`' for value in node["enum"])
    if "oneOf" in node:
        return f"one of {len(node['oneOf'])} kinds (below)"
    if "anyOf" in node:
        return " or ".join(_limits(option) for option in node["anyOf"])
    kind = node.get("type")
    if kind == "string":
        return f"text, at most {node['maxLength']} characters"
    if kind in ("number", "integer"):
        low, high = node["minimum"], node["maximum"]
        span = f"within ±{high}" if low == -high else f"{low} to {high}"
        return f"{'a whole number' if kind == 'integer' else 'a number'}, {span}"
    if kind == "object":
        return "a table"
    if kind == "array":
        items = node["items"]
        count = f"{node['minItems']} to {node['maxItems']}"
        unique = ", none twice" if node.get("uniqueItems") else ""
        if items.get("type") == "object":
            return f"{count} tables"
        if items.get("type") == "array":
            return f"{count} rows, each {_limits(items)}"
        if "enum" in items:
            return f"{count} of {_limits(items)}{unique}"
        if items.get("type") == "number":
            return f"{count} numbers, each {_limits(items).removeprefix('a number, ')}"
        return f"{count}, each {_limits(items)}"
    raise ValueError(f"the docs cannot say this schema node: {sorted(node)}")


def _shown(name: str, node: Schema) -> str:
    if node.get("type") == "array" and node["items"].get("type") == "object":
        return f"[[{name}]]"
    if node.get("type") == "object" or "oneOf" in node:
        return f"[{name}]"
    return name


def _rows(path: str, node: Schema, required: bool) -> list[str]:
    """The row of one field and, for a table, the rows of its own fields after it."""
    presence = "required" if required else "optional"
    what = node.get("description", "")
    rows = [f"| `{path}` | {_cell(what)} | {_cell(_limits(node))}; {presence} |"]
    if node.get("type") == "array" and node["items"].get("type") == "object":
        plain = path.strip("[]")
        rows += _table(f"{plain}[{_INDEX.get(plain, 'i')}]", node["items"])
    elif node.get("type") == "object" and path != "[words]":
        rows += _table(path.strip("[]"), node)
    for number, variant in enumerate(node.get("oneOf", ()), 1):
        rows.append(f"| `{path}`, kind {number} | {_cell(variant['description'])} | a table |")
        rows += _table(path.strip("[]"), variant)
    return rows


def _table(prefix: str, node: Schema) -> list[str]:
    needed = set(node.get("required", ()))
    rows: list[str] = []
    for name, child in node["properties"].items():
        rows += _rows(f"{prefix}.{name}", child, name in needed)
    return rows


def _schema() -> Schema:
    loaded: Schema = json.loads(SCHEMA.read_text("utf-8"))
    return loaded


def fields(schema: Schema) -> str:
    """Every field of a lesson file as a Markdown table: its name, meaning, limits, presence."""
    needed = set(schema["required"])
    rows = ["| field | what it is | limits |", "|---|---|---|"]
    for name, node in schema["properties"].items():
        rows += _rows(_shown(name, node), node, name in needed)
    kinds = ", ".join(
        f"{kind} {entry['maxLength']}" for kind, entry in schema["definitions"].items()
    )
    words = f"A `[words]` entry is at most so many characters, by kind: {kinds}."
    return "\n".join(rows) + f"\n\n{words}\n"


def _names(names: list[str], joint: str) -> str:
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} {joint} {quoted[-1]}"


def _say(rule: Schema) -> str:
    """A condition or a requirement of the schema's presence rules, in words."""
    constrained = rule.get("properties", {})
    parts = [f"`{name}`" for name in rule.get("required", ()) if name not in constrained]
    for name, node in constrained.items():
        parts.append(_about(name, node))
    if "anyOf" in rule:
        parts.append(" or ".join(_say(option) for option in rule["anyOf"]))
    if "not" in rule:
        parts.append(_negated(rule["not"]))
    unknown = set(rule) - {"required", "properties", "anyOf", "not", "type"}
    if unknown or not parts:
        raise ValueError(f"the docs cannot say this schema rule: {json.dumps(rule)}")
    return " and ".join(parts)


def _negated(rule: Schema) -> str:
    options = rule.get("anyOf", [rule])
    if all(set(option) == {"required"} for option in options):
        return "no " + _names([name for option in options for name in option["required"]], "or")
    return f"not ({_say(rule)})"


def _about(name: str, node: Schema) -> str:
    """What a rule asks of one field: what it lists, its length, what each of its items has."""
    if "contains" in node:
        return f"`{name}` lists `{node['contains']['const']}`"
    if "items" in node:
        one = name.removesuffix("s")
        items = node["items"]
        said = [f"every {one}'s {_names(items['required'], 'and')}"] if "required" in items else []
        if "not" in items:
            said.append(_negated(items["not"]).replace("no ", f"no {one}'s ", 1))
        return " and ".join(said)
    if "minItems" in node:
        return f"{node['minItems']} `{name}` or more"
    if "maxItems" in node:
        return f"at most {node['maxItems']} `{name}`"
    if "required" in node:
        return _names([f"{name}.{field}" for field in node["required"]], "and")
    raise ValueError(f"the docs cannot say this rule about {name}: {json.dumps(node)}")


def _listed(rule: Schema) -> str | None:
    """The step kind a rule is about (`if steps lists K`), or '' for a lesson without steps."""
    condition = rule.get("if", {})
    if condition == {"not": {"required": ["steps"]}}:
        return ""
    listed = condition.get("properties", {}).get("steps", {}).get("contains", {})
    return listed.get("const") if isinstance(listed.get("const"), str) else None


def needs(schema: Schema) -> str:
    """Each step kind and what it needs beyond every lesson's fields, as a Markdown table."""
    kinds = [*schema["properties"]["steps"]["items"]["enum"], ""]
    by_kind: dict[str, list[str]] = {kind: [] for kind in kinds}
    for rule in schema["allOf"]:
        kind = _listed(rule)
        if kind is not None:
            by_kind[kind].append(_say(rule["then"]))
    rows = ["| kind | needs |", "|---|---|"]
    for kind, said in by_kind.items():
        name = f"`{kind}`" if kind else "a lesson without `steps` (Day 004's)"
        rows.append(f"| {name} | {_cell('; '.join(said) or 'nothing more')} |")
    return "\n".join(rows) + "\n"


def rules(schema: Schema) -> str:
    """The schema's other rules of presence, one sentence each, as a Markdown list."""
    lines = [
        f"- `{name}` needs {_names(others, 'and')}."
        for name, others in schema.get("dependencies", {}).items()
    ]
    for rule in schema["allOf"]:
        if _listed(rule) is not None:
            continue
        if "if" not in rule:
            lines.append(f"- Every lesson has {_say(rule)}.")
            continue
        line = f"- With {_say(rule['if'])}, the lesson needs {_say(rule['then'])}"
        if "else" in rule:
            line += f"; without, {_say(rule['else'])}"
        lines.append(line + ".")
    return "\n".join(lines) + "\n"


def on_page_markdown(markdown: str, **_: object) -> str:
    """MkDocs' event: a page's markers replaced by the tables the schema gives."""
    if not any(marker in markdown for marker in (FIELDS, NEEDS, RULES)):
        return markdown
    schema = _schema()
    for marker, render in ((FIELDS, fields), (NEEDS, needs), (RULES, rules)):
        markdown = markdown.replace(marker, render(schema))
    return markdown
