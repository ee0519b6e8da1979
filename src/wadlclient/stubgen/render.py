"""Python source of a typed-access module, from its `ModulePlan`.

The output must pass ``ruff`` (lines of at most 100 characters, sorted
imports, no unused import) and ``mypy --strict`` as written, and be the
same bytes for the same plan: long signatures are broken one parameter a
line, docstrings wrapped, and every character outside printable ASCII
letters written as an escape in docstrings.
"""

from __future__ import annotations

import json
import re
import textwrap
import unicodedata

from wadlclient.facts.launchpad_web import is_launchpad_root
from wadlclient.stubgen.plan import ClassPlan, Member, ModulePlan

__all__ = ["render_runtime", "render_stub"]

LIMIT = 100
_DOC_CHARS = 600
_MODULES = ("datetime", "decimal", "typing")


def _string(text: str) -> str:
    """A double-quoted Python literal of ``text``."""
    return json.dumps(text, ensure_ascii=False)


#: The characters `_escape_char` may have to escape: all but printable ASCII. Docstrings are
#: nearly all printable ASCII, so only these few are looked at one by one.
_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char.isalpha() and unicodedata.category(char) in ("Ll", "Lu"):
        return char
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _doc_text(doc: str | None) -> str:
    """One paragraph of docstring text: spaces collapsed, cut near `_DOC_CHARS`, escaped."""
    if not doc:
        return ""
    text = " ".join(doc.split())
    if len(text) > _DOC_CHARS:
        text = text[:_DOC_CHARS].rsplit(" ", 1)[0] + " ..."
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    text = _NOT_PRINTABLE_ASCII.sub(_escape_char, text)
    return text[:-1] + '\\"' if text.endswith('"') else text


def docstring(doc: str | None, indent: str) -> list[str]:
    """The lines of a docstring at ``indent`` (none for no text)."""
    text = _doc_text(doc)
    if not text:
        return []
    if len(indent) + len(text) + 6 <= LIMIT:
        return [f'{indent}"""{text}"""']
    lines = textwrap.wrap(
        text,
        width=LIMIT - len(indent),
        initial_indent='"""',
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [f"{indent}{line}" for line in lines] + [f'{indent}"""']


def _fits(line: str) -> bool:
    return len(line) <= LIMIT


def _noqa(line: str) -> str:
    """``line``, told to ruff to be long when it cannot be broken."""
    return line if _fits(line) else f"{line}  # noqa: E501"


def _signature(
    name: str, parameters: list[str], result: str, decorator: str | None, body: list[str]
) -> list[str]:
    """``def name(self, ...) -> result:`` on one line when it fits, else one parameter a line.

    The body is the docstring, or ``...`` on the same line when there is none.
    """
    indent = "    "
    head = [f"{indent}{decorator}"] if decorator else []
    end = ":" if body else ": ..."
    line = f"{indent}def {name}({', '.join(['self', *parameters])}) -> {result}{end}"
    if _fits(line):
        return [*head, line, *body]
    inner = indent * 2
    return [
        *head,
        f"{indent}def {name}(",
        *(f"{inner}{parameter}," for parameter in ["self", *parameters]),
        f"{indent}) -> {result}{end}",
        *body,
    ]


def _member(member: Member) -> list[str]:
    indent = "    "
    body = docstring(member.doc, indent * 2)
    if member.arguments is not None:
        parameters = ["*"] if member.arguments or member.takes_more else []
        for argument in member.arguments:
            default = "" if argument.required else " = ..."
            parameters.append(f"{argument.name}: {argument.type}{default}")
        if member.takes_more:
            parameters.append("**more: typing.Any")
        return _signature(member.name, parameters, member.type, None, body)
    if member.settable:
        return [_noqa(f"{indent}{member.name}: {member.type}"), *docstring(member.doc, indent)]
    return _signature(member.name, [], member.type, "@property", body)


_LOAD_WEB_DOC = (
    "The entry a web address or reference names (`wadlclient.ServiceRoot.load_web`); "
    "with ``kind``, of that type, or a `wadlclient.WebAddressError`."
)


def _load_web(entries: list[ClassPlan]) -> list[str]:
    """``load_web`` overloads: ``kind="bug_task"`` returns a ``BugTask``."""
    indent, overload = "    ", "    @typing.overload"
    lines = [
        overload,
        f"{indent}def load_web(self, text: str, kind: None = ...) -> wadlclient.Entry:",
        *docstring(_LOAD_WEB_DOC, indent * 2),
    ]
    for entry in entries:
        kind = f"kind: typing.Literal[{_string(entry.type_id or '')}]"
        lines += ["", overload, *_signature("load_web", ["text: str", kind], entry.name, None, [])]
    last = f"{indent}def load_web(self, text: str, kind: str | None = ...) -> typing.Any: ..."
    return [*lines, "", overload, last]


def _web_entries(plan: ModulePlan, cls: ClassPlan) -> list[ClassPlan] | None:
    """The entry classes of ``load_web``'s overloads, for a Launchpad root; else None."""
    if cls.name != plan.root or not is_launchpad_root(member.name for member in cls.members):
        return None
    return [entry for entry in plan.classes if entry.type_id is not None]


def _class(plan: ClassPlan, entries: list[ClassPlan] | None = None) -> list[str]:
    line = f"class {plan.name}({plan.base}, typing.Protocol):"
    if not _fits(line):
        line = f"class {plan.name}(\n    {plan.base},\n    typing.Protocol,\n):"
    lines = [line]
    lines += docstring(plan.doc, "    ")
    for member in plan.members:
        if len(lines) > 1:
            lines.append("")
        lines += _member(member)
    if entries is not None:
        lines += ["", *_load_web(entries)]
    if len(lines) == 1:
        lines.append("    ...")
    return lines


_CONNECT_DOC = [
    '    """A `wadlclient.ServiceRoot` for ``service_root``, typed as this service\'s root.',
    "",
    "    ``options`` are those of `wadlclient.ServiceRoot` (``cache``, ``version``,",
    "    ``timeout``, ...).",
    '    """',
]
_TYPED_DOC = '    """``root`` as this service\'s root: the same object, for the type checker."""'
_CONNECT = "def connect(authorizer: typing.Any, service_root: str, **options: typing.Any) -> {}:"
_ANONYMOUS = (
    "def login_anonymously(consumer_name: str, service_root: str, **options: typing.Any) -> {}:"
)
_ANONYMOUS_DOC = [
    '    """``connect`` with anonymous OAuth access: ``consumer_name`` and an empty token.',
    "",
    "    lazr.restful services (Launchpad's among them) answer such requests with",
    "    what is public, as launchpadlib's ``Launchpad.login_anonymously`` does.",
    '    """',
]


def _paragraph(text: str) -> list[str]:
    """Wrapped lines of docstring text, then a blank line (nothing for no text)."""
    lines = textwrap.wrap(text, LIMIT, break_long_words=False, break_on_hyphens=False)
    return [*lines, ""] if lines else []


def _header(title: str | None, command: str, what: str) -> list[str]:
    return [
        '"""Typed access to a web service, generated from its WADL; do not edit.',
        "",
        *_paragraph(_doc_text(title)),
        *_paragraph(f"Generated by ``{command}``. {what}")[:-1],
        '"""',
    ]


def _stub_header(title: str | None, command: str) -> list[str]:
    what = (
        "Every class is a `typing.Protocol` describing an object wadlclient returns; "
        "type checkers read this stub, and at run time the package holds only `connect`, "
        "`login_anonymously` and `typed`."
    )
    return _header(title, command, what)


def _types_of(plan: ModulePlan) -> str:
    """Every type the stub writes, as one text (docstrings left out)."""
    types = [member.type for cls in plan.classes for member in cls.members]
    types += [arg.type for cls in plan.classes for m in cls.members for arg in m.arguments or ()]
    return " ".join(types) + " typing.Protocol"


def _imports(types: str, future: bool) -> list[str]:
    """The imports of the modules ``types`` names (``datetime.date`` needs ``datetime``)."""
    used = [name for name in _MODULES if re.search(rf"\b{name}\.", types)]
    lines = ["from __future__ import annotations", ""] if future else []
    return [*lines, *(f"import {name}" for name in used), "", "import wadlclient"]


def render_stub(plan: ModulePlan, title: str | None, command: str) -> str:
    """The type stub (``__init__.pyi``) for ``plan``; ``command`` regenerates it."""
    blocks: list[list[str]] = []
    for alias in plan.aliases:
        options = [_noqa(f"    {_string(option)},") for option in alias.options]
        blocks.append([f"{alias.name} = typing.Literal[", *options, "]"])
    blocks += [_class(cls, _web_entries(plan, cls)) for cls in plan.classes]
    blocks.append([_noqa(_CONNECT.format(plan.root)), *_CONNECT_DOC])
    blocks.append([_noqa(_ANONYMOUS.format(plan.root)), *_ANONYMOUS_DOC])
    blocks.append([f"def typed(root: wadlclient.RootLike) -> {plan.root}:", _TYPED_DOC])
    body = "\n\n\n".join("\n".join(block) for block in blocks)
    head = "\n".join([*_stub_header(title, command), "", *_imports(_types_of(plan), False)])
    return f"{head}\n\n{body}\n"


def render_runtime(plan: ModulePlan, title: str | None, command: str) -> str:
    """The module (``__init__.py``) run at import: its three functions, and names as `Any`."""
    what = (
        "The types are in __init__.pyi, for type checkers; at run time this module "
        "holds `connect`, `login_anonymously` and `typed`, and every name the stub "
        "declares is `typing.Any`."
    )
    names = sorted([alias.name for alias in plan.aliases] + [cls.name for cls in plan.classes])
    lines = [
        *_header(title, command, what),
        "",
        *_imports("typing.Any", future=True),
        "",
        "#: The names __init__.pyi declares for type checkers.",
        "_DECLARED = frozenset(",
        "    {",
        *(f"        {_string(name)}," for name in names),
        "    }",
        ")",
        "",
        "",
        _CONNECT.format("typing.Any"),
        *_CONNECT_DOC,
        "    return wadlclient.ServiceRoot(authorizer, service_root, **options)",
        "",
        "",
        _ANONYMOUS.format("typing.Any"),
        *_ANONYMOUS_DOC,
        '    token = wadlclient.AccessToken("", "")',
        "    authorizer = wadlclient.OAuthAuthorizer(consumer_name, access_token=token)",
        "    return wadlclient.ServiceRoot(authorizer, service_root, **options)",
        "",
        "",
        "def typed(root: wadlclient.RootLike) -> typing.Any:",
        _TYPED_DOC,
        "    return root",
        "",
        "",
        "def __getattr__(name: str) -> typing.Any:",
        '    """A declared class or alias: `typing.Any` at run time (annotations only)."""',
        "    if name in _DECLARED:",
        "        return typing.Any",
        '    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")',
    ]
    return "\n".join(lines) + "\n"
