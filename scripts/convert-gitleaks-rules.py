#!/usr/bin/env python3
"""
Converts the gitleaks default rule set (config/gitleaks.toml, MIT) into data/redaction/gitleaks-rules.json
and the same data as a TypeScript module (src/redact/gitleaks-rules.generated.ts), with every Go RE2 pattern
rewritten for JavaScript: Node 20's RegExp has no inline flags, so `(?i)`, `(?i:...)` and `(?-i:...)` become
explicit case classes (`[aA]`), `(?s:.)` becomes `[\\s\\S]`, `\\z` becomes `$`, POSIX classes are spelled out
and named groups become plain groups (group numbers, which pick the secret, do not change).

  python3 scripts/convert-gitleaks-rules.py path/to/gitleaks.toml v8.30.0 <commit>
"""
import json
import sys
import tomllib

# Rules left out, each replaced by recall's own rule or of no use on text: the generic key rule
# (recall's assignment rule decides references and placeholders itself), private key blocks (recall
# also finds blocks cut before their END line), and a rule that matches file paths only.
LEFT_OUT = {"generic-api-key": "replaced by recall's key-name assignment rule",
            "private-key": "replaced by recall's key block scan (handles a missing END line)",
            "pkcs12-file": "matches file paths only"}

POSIX = {"alnum": "A-Za-z0-9", "alpha": "A-Za-z", "digit": "0-9", "lower": "a-z", "upper": "A-Z",
         "space": "\\t\\n\\v\\f\\r ", "xdigit": "0-9A-Fa-f", "word": "\\w", "punct": "!-/:-@\\[-`{-~"}


def both(c):
    return f"[{c.lower()}{c.upper()}]"


def convert(src):
    out = []
    i = 0
    n = len(src)
    stack = [{"ci": False, "dotall": False}]

    def state():
        return stack[-1]

    while i < n:
        c = src[i]
        if c == "\\":
            nxt = src[i + 1]
            if nxt == "z":
                out.append("$"); i += 2; continue
            if nxt == "A":
                out.append("^"); i += 2; continue
            if nxt == "x":
                if src[i + 2] == "{":
                    j = src.index("}", i)
                    out.append("\\u" + src[i + 3:j].rjust(4, "0")); i = j + 1; continue
                out.append(src[i:i + 4]); i += 4; continue
            if nxt.isalpha() and state()["ci"] and nxt not in "wWdDsSbBnrtfv":
                raise ValueError(f"unexpected escape \\{nxt} in {src}")
            out.append(src[i:i + 2]); i += 2; continue
        if c == "[":
            j = i + 1
            cls = "["
            if j < n and src[j] == "^":
                cls += "^"; j += 1
            if j < n and src[j] == "]":
                cls += "\\]"; j += 1
            body = []
            while src[j] != "]":
                if src.startswith("[:", j):
                    k = src.index(":]", j)
                    body.append(("raw", POSIX[src[j + 2:k]])); j = k + 2; continue
                if src[j] == "\\":
                    if src[j + 1] == "x":
                        body.append(("raw", src[j:j + 4])); j += 4; continue
                    body.append(("raw", src[j:j + 2])); j += 2; continue
                if src[j] == "[":
                    body.append(("raw", "\\[")); j += 1; continue
                if j + 2 < n and src[j + 1] == "-" and src[j + 2] != "]":
                    body.append(("range", src[j], src[j + 2])); j += 3; continue
                body.append(("char", src[j])); j += 1
            for item in body:
                if item[0] == "raw":
                    cls += item[1]
                elif item[0] == "range":
                    a, b = item[1], item[2]
                    cls += f"{a}-{b}"
                    if state()["ci"] and a.isalpha() and b.isalpha() and a.islower() == b.islower():
                        cls += f"{a.swapcase()}-{b.swapcase()}"
                else:
                    ch = item[1]
                    cls += ch if ch not in "/" else "\\/"
                    if state()["ci"] and ch.isalpha():
                        cls += ch.swapcase()
            out.append(cls + "]"); i = j + 1; continue
        if c == "(":
            if src.startswith("(?", i):
                j = i + 2
                flags = ""
                while src[j] not in ":)":
                    if src[j] == "P" or src[j] == "<":
                        break
                    flags += src[j]; j += 1
                if src[j] in "P<":
                    k = src.index(">", j)
                    stack.append(dict(state())); out.append("("); i = k + 1; continue
                new = dict(state())
                on = True
                for f in flags:
                    if f == "-":
                        on = False
                    elif f == "i":
                        new["ci"] = on
                    elif f == "s":
                        new["dotall"] = on
                    else:
                        raise ValueError(f"flag {f} in {src}")
                if src[j] == ")":
                    stack[-1] = new; i = j + 1; continue
                stack.append(new); out.append("(?:"); i = j + 1; continue
            stack.append(dict(state())); out.append("("); i += 1; continue
        if c == ")":
            stack.pop(); out.append(")"); i += 1; continue
        if c == "." and state()["dotall"]:
            out.append("[\\s\\S]"); i += 1; continue
        if c == "/":
            out.append("\\/"); i += 1; continue
        if c.isalpha() and state()["ci"]:
            out.append(both(c)); i += 1; continue
        if c == "{" and state()["ci"]:
            j = src.index("}", i)
            out.append(src[i:j + 1]); i = j + 1; continue
        out.append(c); i += 1
    return "".join(out)


def convert_allowlist(al):
    out = {}
    if "regexes" in al:
        out["regexes"] = [convert(r) for r in al["regexes"]]
        out["regexTarget"] = al.get("regexTarget", "secret")
    if "stopwords" in al:
        out["stopwords"] = [w.lower() for w in al["stopwords"]]
    return out if out else None


def main():
    path, version, commit = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path, "rb") as f:
        config = tomllib.load(f)
    rules = []
    for r in config["rules"]:
        if r["id"] in LEFT_OUT or "regex" not in r:
            continue
        # The optional key prefix only widens the match around the secret (which is a group): without it
        # a search does not try 50 characters of key at every position of the text.
        regex = r["regex"].replace("[\\w.-]{0,50}?", "")
        rule = {"id": r["id"], "regex": convert(regex), "keywords": [k.lower() for k in r.get("keywords", [])]}
        if "entropy" in r:
            rule["entropy"] = r["entropy"]
        if "secretGroup" in r:
            rule["secretGroup"] = r["secretGroup"]
        allow = [a for a in (convert_allowlist(al) for al in r.get("allowlists", [])) if a]
        if allow:
            rule["allowlists"] = allow
        rules.append(rule)
    glob = config.get("allowlist", {})
    data = {
        "source": "gitleaks default config (config/gitleaks.toml)",
        "version": version,
        "commit": commit,
        "license": "MIT, Copyright (c) 2019 Zachary Rice; see data/redaction/GITLEAKS-LICENSE",
        "converted": "Go RE2 to JavaScript by scripts/convert-gitleaks-rules.py",
        "leftOut": LEFT_OUT,
        "globalAllowlist": {"regexes": [convert(r) for r in glob.get("regexes", [])],
                            "stopwords": [w.lower() for w in glob.get("stopwords", [])]},
        "rules": rules,
    }
    with open("data/redaction/gitleaks-rules.json", "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open("src/redact/gitleaks-rules.generated.ts", "w") as f:
        f.write("// Generated by scripts/convert-gitleaks-rules.py from data/redaction/gitleaks-rules.json: do not edit.\n")
        f.write("// gitleaks " + version + " (" + commit + "), MIT, Copyright (c) 2019 Zachary Rice.\n")
        f.write("import type { RuleSet } from './rule-set.js';\n\n")
        f.write("export const GITLEAKS_RULES: RuleSet = ")
        f.write(json.dumps(data, indent=1, ensure_ascii=False))
        f.write(";\n")
    print(f"{len(rules)} rules written")


main()
