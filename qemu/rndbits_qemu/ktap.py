"""A KTAP version 1 parser (Linux's Documentation/dev-tools/ktap.rst), for the kernel's `selftest`
output: the version line, a plan `1..N` per level, `ok N name` / `not ok N name [# directive]`
results, subtests indented by four spaces and closed by their result line in the parent,
`# ...` diagnostic lines. Lines before the first `KTAP version 1` (the command's echo, the boot
log) and after the last result the top-level plan announced are not looked at; a line inside
the document that is none of these is reported (the kernel prints nothing else there)."""

import re

RESULT_RE = re.compile(r"^(not )?ok (\d+)(?: -)?(?: ([^#]*?))?\s*(?:#\s*(SKIP|TODO)\b.*)?$", re.I)
PLAN_RE = re.compile(r"^1\.\.(\d+)$")


class Level:
    """One KTAP document: the top level or a subtest."""

    def __init__(self, depth):
        self.depth, self.name, self.plan, self.count = depth, None, None, 0
        self.diagnostics = []       # since the last result
        self.failures = []          # (name, diagnostics) of failed results, children's included


class Result:
    def __init__(self):
        self.passed = 0             # leaf results that passed (skips count as passed)
        self.failures = []          # "suite.case: first diagnostic" for every failed leaf
        self.errors = []            # what is wrong with the document itself

    @property
    def ok(self):
        return not self.failures and not self.errors


def parse(lines):
    r = Result()
    stack = None
    for raw in lines:
        line = raw.rstrip()
        if stack is None:
            if line.strip() == "KTAP version 1":
                stack = [Level(0)]
            continue
        text = line.lstrip(" ")
        if not text:
            continue
        depth = (len(line) - len(text)) // 4
        if text.startswith("KTAP version"):
            if text != "KTAP version 1":
                r.errors.append("%r: not KTAP version 1" % text)
            if depth != len(stack):
                r.errors.append("%r: a subtest must be indented one level (4 spaces) deeper" % line)
            stack.append(Level(depth))
            continue
        if depth >= len(stack):
            r.errors.append("%r: indented deeper than any open subtest" % line)
            continue
        m = PLAN_RE.match(text)
        if m:
            stack[depth].plan = int(m.group(1))
            continue
        if text.startswith("#"):
            m = re.match(r"^#\s*Subtest:\s*(.*)$", text)
            if m:
                stack[depth].name = m.group(1).strip()
            else:
                stack[depth].diagnostics.append(text[1:].strip())
            continue
        m = RESULT_RE.match(text)
        if not m:
            r.errors.append("%r: neither a result, a plan nor a diagnostic" % line)
            continue
        children = _close_children(stack, depth, r, m.group(3) or "")
        _record(stack[depth], not m.group(1), int(m.group(2)), (m.group(3) or "").strip(),
                (m.group(4) or "").upper(), children, r)
        if depth == 0 and stack[0].count == stack[0].plan:
            break           # the document is complete; what follows is the console's
    if stack is None:
        r.errors.append("no `KTAP version 1` line")
        return r
    while len(stack) > 1:
        r.errors.append("subtest %s never closed by a result line" % (stack[-1].name or "?"))
        stack.pop()
    _check_plan(stack[0], r)
    r.failures = ["%s: %s" % (name, "; ".join(diag)) if diag else name
                  for name, diag in stack[0].failures]
    return r


def _close_children(stack, depth, r, name):
    """A result line at depth closes the subtest open below it. Returns that subtest's failures,
    named suite.case, or None when the result closes no subtest (a leaf case)."""
    child = None
    while len(stack) > depth + 1:
        child = stack.pop()
        _check_plan(child, r)
    if child is None:
        return None
    suite = child.name or name.strip()
    return [("%s.%s" % (suite, n), d) for n, d in child.failures]


def _record(level, ok, number, name, directive, children, r):
    level.count += 1
    if number != level.count:
        r.errors.append("result %d %s: expected number %d" % (number, name, level.count))
    if directive == "TODO":
        pass
    elif children is not None:
        level.failures += children
        if not ok and not children:
            level.failures.append((name, level.diagnostics or ["failed with every case passing"]))
        if ok and children:
            r.errors.append("%s: ok, yet %d of its cases failed" % (name, len(children)))
    elif ok or directive == "SKIP":
        r.passed += 1
    else:
        level.failures.append((name, level.diagnostics))
    level.diagnostics = []


def _check_plan(level, r):
    where = "subtest %s" % level.name if level.depth else "top level"
    if level.plan is None:
        r.errors.append("%s: no plan line (1..N)" % where)
    elif level.plan != level.count:
        r.errors.append("%s: plan 1..%d but %d results" % (where, level.plan, level.count))


def failures(lines):
    """For a transcript's [check]: every failing case and every fault of the document, as
    strings; an empty list when the KTAP output passed."""
    r = parse(lines)
    return r.failures + ["KTAP: %s" % e for e in r.errors]
