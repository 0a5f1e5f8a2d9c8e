"""Read YAML while remembering the line of every value.

Layout errors must point at ``file:line``; plain ``yaml.safe_load`` loses
the lines, so this composes the node tree and converts it to plain Python
values, keeping a map from each value's path to its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import LayoutError

Path_ = tuple[str | int, ...]


@dataclass
class YamlSource:
    """A parsed YAML document: plain data plus the 1-based line of each path."""

    file: str
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Path_) -> int:
        """Line of ``path``, or of its nearest ancestor that has one."""
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)

    def where(self, path: Path_) -> str:
        return f"{self.file}:{self.line(path)}"


def read_yaml(text: str, file: str) -> YamlSource:
    """Parse ``text``; raise LayoutError with ``file:line`` on bad syntax."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise LayoutError(f"{file}:{line}: YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        raise LayoutError(f"{file}: YAML syntax error: {exc}") from None
    source = YamlSource(file=file, data=None)
    if node is None:
        return source
    source.data = _convert(node, (), source.lines, file)
    return source


def read_yaml_file(path: Path, display: str | None = None) -> YamlSource:
    """Read ``path``; messages name it as ``display`` (default: the path)."""
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LayoutError(f"{name}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise LayoutError(f"{name}: not a text file (expected YAML in UTF-8)") from None
    return read_yaml(text, name)


def _convert(node: yaml.Node, path: Path_, lines: dict[Path_, int], file: str) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _convert(key_node, path + ("<key>",), {}, file)
            if not isinstance(key, str | int) or isinstance(key, bool):
                raise LayoutError(
                    f"{file}:{key_node.start_mark.line + 1}: keys must be names, not {key!r}"
                )
            if key in result:
                raise LayoutError(f"{file}:{key_node.start_mark.line + 1}: duplicate key '{key}'")
            result[key] = _convert(value_node, path + (key,), lines, file)
            # A keyed value is reported at its key: for a nested block
            # ("C:" then "steps: ...") that is the line a person looks for.
            lines[path + (key,)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, path + (i,), lines, file) for i, item in enumerate(node.value)]
    return _SCALARS.construct_object(node, deep=True)


# One loader constructs every scalar (ints, floats, strings, booleans).
_SCALARS = yaml.SafeLoader("")
