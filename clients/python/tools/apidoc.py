"""Writes clients/python/API.md, the API reference, from the package's
docstrings and signatures (``python tools/apidoc.py``; ``--check`` fails
when the committed file is stale: pkg-scripts/test-sdk.sh runs it)."""

from __future__ import annotations

import inspect
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "API.md"


def doc(obj) -> str:
    return inspect.cleandoc(obj.__doc__ or "").strip()


def signature(name: str, fn) -> str:
    try:
        sig = str(inspect.signature(fn)).replace("'", "")
    except (TypeError, ValueError):
        sig = "(…)"
    return f"{name}{sig}"


def section_function(name: str, fn, level: str = "###") -> str:
    return f"{level} `{signature(name, fn)}`\n\n{doc(fn)}\n"


def section_class(name: str, cls, level: str = "###") -> str:
    out = [f"{level} class `{name}`\n", doc(cls) + "\n"]
    for attr, member in cls.__dict__.items():
        if attr.startswith("_") and attr not in ("__init__",):
            continue
        if attr == "__init__" and cls.__init__ is not object.__init__:
            continue
        if isinstance(member, property):
            out.append(f"- `.{attr}`: {doc(member).splitlines()[0] if doc(member) else ''}")
        elif inspect.isfunction(member):
            first = doc(member)
            out.append(f"- `.{signature(attr, member)}`: {first}")
    return "\n".join(out) + "\n"


def main() -> int:
    import sentience_sdk as s
    from sentience_sdk import aio, models

    parts = [
        "# sentience_sdk API reference",
        "",
        "GENERATED from the docstrings by `tools/apidoc.py`: do not edit.",
        "The sync API is `sentience_sdk`; `sentience_sdk.aio` has the same names, awaited (over `playwright.async_api`).",
        "",
        "## Functions",
        "",
    ]
    for name in s.__all__:
        obj = getattr(s, name)
        if inspect.isfunction(obj):
            parts.append(section_function(name, obj))
    parts += ["## Classes", ""]
    for name in s.__all__:
        obj = getattr(s, name)
        if inspect.isclass(obj) and not issubclass(obj, models.View) and obj.__module__ != "sentience_sdk.errors":
            parts.append(section_class(name, obj))
    parts += ["## Errors", ""]
    for name in s.__all__:
        obj = getattr(s, name)
        if inspect.isclass(obj) and obj.__module__ == "sentience_sdk.errors":
            parts.append(f"- `{name}`: {doc(obj)}")
    parts += ["", "## Snapshot models (generated from snapshot.schema.json)", "", doc(models), ""]
    for name in models.__all__:
        cls = getattr(models, name)
        if not (inspect.isclass(cls) and issubclass(cls, models.View)) or cls in (models.View,):
            continue
        parts.append(f"### `{name}`\n")
        if doc(cls):
            parts.append(doc(cls) + "\n")
        for field, tag, required in cls.FIELDS:
            ret = str(inspect.signature(getattr(cls, field).fget).return_annotation).strip("'")
            d = doc(getattr(cls, field))
            parts.append(f"- `{field}`: `{ret}`{'' if required else ' (optional)'}{(' — ' + d) if d else ''}")
        parts.append("")
    parts += ["## Async (`sentience_sdk.aio`)", "", ", ".join(f"`{n}`" for n in aio.__all__), ""]
    # browser-use makes a download folder in the temporary folder when it is
    # imported: one of ours, removed.
    with tempfile.TemporaryDirectory() as scratch:
        saved, tempfile.tempdir = tempfile.tempdir, scratch
        try:
            from sentience_sdk.adapters import browser_use, langchain
        finally:
            tempfile.tempdir = saved

    parts += [
        "## Adapters",
        "",
        "### LangChain (`pip install 'sentience-sdk[langchain]'`)",
        "",
        section_function("sentience_sdk.adapters.langchain.sentience_tools", langchain.sentience_tools, "####"),
        "### browser-use (`pip install 'sentience-sdk[browser-use]'`)",
        "",
        doc(browser_use) + "\n",
        section_function("sentience_sdk.adapters.browser_use.sentience_tools", browser_use.sentience_tools, "####"),
        section_function("sentience_sdk.adapters.browser_use.sentience_browser_session", browser_use.sentience_browser_session, "####"),
        f"`BUILTIN_ELEMENT_ACTIONS` = `{browser_use.BUILTIN_ELEMENT_ACTIONS!r}`: browser-use's own actions that ours replace.",
    ]
    text = "\n".join(parts).rstrip() + "\n"
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: regenerate it with clients/python/.venv/bin/python clients/python/tools/apidoc.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
