"""A tiny HTML tree for web tests (stdlib only): find elements by id, class or attribute and
read their text the way a player would see it."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

_SPACES = re.compile(r"\s+")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None = None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        # Every piece of text below, in document order, spaced and collapsed once: the same as
        # collapsing at each level (a child's text is stripped, then joined with a space), without
        # walking the subtree again at every level.
        parts: list[str] = []
        stack: list[Node | str] = list(reversed(self.children))
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
            else:
                stack.extend(reversed(item.children))
        return _SPACES.sub(" ", " ".join(parts)).strip()

    def walk(self):
        """Every element below, in document order. A stack, not nested generators: those passed
        each node up through every ancestor's generator, and pages are deep."""
        stack = [c for c in reversed(self.children) if isinstance(c, Node)]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(c for c in reversed(node.children) if isinstance(c, Node))

    def all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        return [n for n in self.walk()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def one(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, f"expected one {tag} .{cls} {attrs}, found {len(found)}"
        return found[0]

    def by_id(self, id_: str) -> Node:
        return self.one(id=id_)

    def has_id(self, id_: str) -> bool:
        return bool(self.all(id=id_))

    def field(self, name: str) -> Node:
        """The form control with this name (the first, for radio groups)."""
        return [n for n in self.walk() if n.attrs.get("name") == name][0]


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


# One token at each "<" of well-formed markup: a comment, a declaration, an end tag, or a start
# tag (its name, its attributes, a closing "/"): the shapes the app's templates write.
_TOKEN = re.compile(r"""<!--.*?-->|<![^>]*>|</([a-zA-Z][-.a-zA-Z0-9:_]*)\s*>
    |<([a-zA-Z][-.a-zA-Z0-9:_]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(/?)>""",
                    re.S | re.X)
_ATTR = re.compile(r"""\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
_RAW_END = {tag: re.compile(rf"</\s*{tag}\s*>", re.I) for tag in _Builder.CDATA_CONTENT_ELEMENTS}


def _attrs(text: str) -> dict[str, str | None]:
    """As HTMLParser reads them: names in lower case, a bare name None, values unquoted and
    unescaped; a repeated name keeps its last value (as dict() of HTMLParser's list did)."""
    attrs: dict[str, str | None] = {}
    for name, value in _ATTR.findall(text):
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        elif not value:  # no "=" at all (an empty quoted value is "")
            attrs[name.lower()] = None
            continue
        attrs[name.lower()] = unescape(value) if "&" in value else value
    return attrs


def _fast(html: str) -> Node | None:
    """The tree _Builder makes, tokenized with one regular expression instead of HTMLParser's
    loop of Python steps (a game page took 12 ms of CPU to parse, more than the app took to
    render it). None at the first "<" that is not well-formed markup: then HTMLParser decides."""
    root = current = Node("#root", {})
    pos, end = 0, len(html)
    while pos < end:
        at = html.find("<", pos)
        if at < 0:
            at = end
        if at > pos:
            text = html[pos:at]
            current.children.append(unescape(text) if "&" in text else text)
        if at == end:
            break
        token = _TOKEN.match(html, at)
        if token is None:
            return None
        pos = token.end()
        closing, tag, attrs, empty = token.groups()
        if tag:
            tag = tag.lower()
            node = Node(tag, _attrs(attrs) if attrs else {}, current)
            current.children.append(node)
            if empty or tag in VOID:  # as _Builder: a void or self-closed element holds nothing
                continue
            current = node
            if tag in _RAW_END:  # script, style: their text is not markup, and not unescaped
                raw_end = _RAW_END[tag].search(html, pos)
                stop = raw_end.start() if raw_end else end
                if stop > pos:
                    current.children.append(html[pos:stop])
                pos = stop
        elif closing:  # as _Builder.handle_endtag: close up to the nearest open element of that tag
            closing, node = closing.lower(), current
            while node is not root and node.tag != closing:
                node = node.parent
            if node is not root:
                current = node.parent
    return root


def parse(html: str) -> Node:
    root = _fast(html)
    if root is None:
        builder = _Builder()
        builder.feed(html)
        root = builder.root
    return root


def form_items(form: Node, outside: list[Node] = (), **fill: str | list[str]) -> list[tuple[str, str]]:
    """What a browser would send for this form as rendered (hidden fields, typed values, ticked
    boxes, chosen options), with `fill` replacing fields by name (a list ticks several boxes).
    Field names with dots or stars are given as fill={"a.b": ...} via **{...}."""
    items: list[tuple[str, str]] = []
    for n in [*form.walk(), *outside]:
        name = n.attrs.get("name")
        if not name or "disabled" in n.attrs or n.tag == "button":
            continue
        if n.tag == "input":
            kind = n.attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in n.attrs:
                continue
            items.append((name, n.attrs.get("value") or ("on" if kind == "checkbox" else "")))
        elif n.tag == "select":
            options = n.all("option")
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            items += [(name, o.attrs.get("value", o.text())) for o in chosen]
        elif n.tag == "textarea":
            items.append((name, n.text()))
    for name, value in fill.items():
        hidden_false = [(k, v) for k, v in items if k == name and v == "false"]
        items = [(k, v) for k, v in items if k != name]
        if isinstance(value, list):
            items += [(name, v) for v in value]
        else:
            items += hidden_false[:1] + [(name, value)]  # a toggle keeps its hidden "false" first
    return items
