#!/usr/bin/env python3
# Exists so the articles can link as plain Markdown (read on GitHub) while DocC still gets, and checks, doc: links.
"""Rewrites a copy of a documentation catalog, in place, into the links DocC resolves.

The articles are written for a repository page: `[Title](Article.md)`, `[Heading](Article.md#heading)`
(GitHub's anchor: lower case, spaces to hyphens, punctuation dropped), `[Heading](#heading)` and
`![alt](Resources/picture.png)`. DocC follows none of these: it renders a `.md` link as a dead
relative URL without a warning, and reports "Resource 'Resources/picture.png' couldn't be found".
So `Tests/Docs/build.sh` runs this on a temporary copy of the catalog before `docc convert`:

- `[text](Article.md)` becomes `[text](doc:Article)`, and `[text](Article.md#heading)` or
  `[text](#heading)` becomes `[text](doc:Article#Heading)` (DocC's anchor: the heading's own case,
  whitespace and dashes to one hyphen, punctuation dropped), so `docc convert --warnings-as-errors`
  checks every such link.
- A list item that is one link, under `## Topics` or `## See Also`, becomes `- <doc:Article>` (the
  form DocC curates its tree from).
- `![alt](any/path/picture.png)` becomes `![alt](picture.png)` (DocC finds images by file name).

An anchor that names no heading of its article, and any other relative link (to a file that is
not an article of the catalog: DocC cannot follow it), is an error, and nothing is rewritten. Lines
are neither added nor removed, so DocC's line numbers hold for the source files.
Usage: docc-links.py <catalog.docc>
"""
import pathlib
import re
import sys
import unicodedata

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# A code span (left as it is), an image, or a link; the destination has no spaces or parentheses.
TOKEN = re.compile(
    r"(?P<code>(?P<ticks>`+)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`))"
    r"|(?P<image>!\[(?P<alt>[^\[\]]*)\]\((?P<src>[^()\s]+)(?P<stitle>\s+\"[^\"]*\")?\))"
    r"|(?P<link>\[(?P<text>[^\[\]]*)\]\((?P<dest>[^()\s]+)(?P<ltitle>\s+\"[^\"]*\")?\))",
    re.DOTALL,
)
ARTICLE_LINK = re.compile(r"^(?:\./)?(?P<name>[^/#?]+)\.md(?:#(?P<fragment>.*))?$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def github_anchor(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation and symbols dropped, each space a hyphen."""
    kept = (c for c in heading.lower() if c.isalnum() or c in "-_ " or unicodedata.category(c).startswith("M"))
    return "".join(kept).replace(" ", "-")


def docc_anchor(heading: str) -> str:
    """DocC's heading anchor (urlReadableFragment): whitespace and dashes to one hyphen, punctuation dropped."""
    words = [w for w in re.split(r"[\s\-\u2013\u2014]+", heading.strip()) if w]
    joined = "-".join(words)
    return "".join(c for c in joined if c == "-" or not (c == "`" or unicodedata.category(c).startswith("P")))


def headings(text: str) -> list[str]:
    """The ATX headings outside fenced code, as written (inline code marks dropped)."""
    found, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append(match.group(2).replace("`", ""))
    return found


def anchor_map(text: str) -> dict[str, str]:
    """GitHub anchor (with its -1, -2 suffix for repeats) to DocC anchor, for every heading."""
    mapping: dict[str, str] = {}
    seen: dict[str, int] = {}
    for heading in headings(text):
        base = github_anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        mapping[base if count == 0 else f"{base}-{count}"] = docc_anchor(heading)
    return mapping


def convert(path: pathlib.Path, label: str, articles: dict[str, pathlib.Path], errors: list[str]) -> str:
    """The text of `path` with DocC's links; problems go to `errors`, each at `label:line`."""
    text = path.read_text(encoding="utf-8")
    anchors = {name: anchor_map(file.read_text(encoding="utf-8")) for name, file in articles.items()}

    def doc_target(name: str, fragment: str | None, where: str) -> str:
        if fragment is None:
            return f"doc:{name}"
        docc = anchors.get(name, {}).get(fragment)
        if docc is None:
            errors.append(f"{where}: no heading of {name}.md has the anchor #{fragment}")
            docc = fragment
        return f"doc:{name}#{docc}"

    def rewrite(chunk: str, first_line: int) -> str:
        def replace(match: re.Match) -> str:
            where = f"{label}:{first_line + chunk.count(chr(10), 0, match.start())}"
            if match.group("code"):
                return match.group(0)
            if match.group("image"):
                src = match.group("src")
                if SCHEME.match(src) or src.startswith("/"):
                    return match.group(0)
                return f"![{match.group('alt')}]({src.rsplit('/', 1)[-1]}{match.group('stitle') or ''})"
            dest = match.group("dest")
            if SCHEME.match(dest):
                return match.group(0)
            if dest.startswith("#"):
                name, fragment = path.stem, dest[1:]
            elif (article := ARTICLE_LINK.match(dest)) and article.group("name") in articles:
                name, fragment = article.group("name"), article.group("fragment")
            else:
                errors.append(f"{where}: {dest} is not an article of the catalog, so DocC cannot follow it")
                return match.group(0)
            return f"[{match.group('text')}]({doc_target(name, fragment, where)}{match.group('ltitle') or ''})"

        return TOKEN.sub(replace, chunk)

    out: list[str] = []
    prose: list[str] = []
    prose_start = 1
    fenced = False
    section = ""
    lines = text.split("\n")

    def flush() -> None:
        if prose:
            out.append(rewrite("\n".join(prose), prose_start))
            prose.clear()

    for number, line in enumerate(lines, start=1):
        if FENCE.match(line):
            if not fenced:
                flush()
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        if (heading := HEADING.match(line)) and len(heading.group(1)) <= 2:
            section = heading.group(2) if len(heading.group(1)) == 2 else ""
        item = re.match(r"^(\s*[-*+] )\[[^\[\]]*\]\((?:\./)?([^/#()\s]+)\.md(#[^()\s]*)?\)\s*$", line)
        if section in ("Topics", "See Also") and item and item.group(2) in articles:
            flush()
            fragment = item.group(3)
            target = doc_target(item.group(2), fragment[1:] if fragment else None, f"{label}:{number}")
            out.append(f"{item.group(1)}<{target}>")
            continue
        if not prose:
            prose_start = number
        prose.append(line)
    flush()
    return "\n".join(out)


def main() -> int:
    if len(sys.argv) != 2 or not pathlib.Path(sys.argv[1]).is_dir():
        print("usage: docc-links.py <catalog.docc>", file=sys.stderr)
        return 64
    catalog = pathlib.Path(sys.argv[1])
    files = sorted(catalog.rglob("*.md"))
    articles = {file.stem: file for file in files}
    errors: list[str] = []
    converted = {file: convert(file, str(file.relative_to(catalog)), articles, errors) for file in files}
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    for file, text in converted.items():
        file.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
