#!/usr/bin/env bash
# House rule: outside tests/, no source file over 500 lines and no function
# over 80 lines. Scans every tracked .cpp/.hpp outside tests/ and lists each breach; exit 1 if any.
# The function scan matches braces after comments and literals are blanked: a brace opened after
# `)` (with const/noexcept/override/-> type, or a constructor's initializers) at namespace or
# class scope starts a function; a function's lambdas count toward it.
#   scripts/check_sizes.sh [--max-file N] [--max-function N] [files...]
set -euo pipefail
command -v python3 >/dev/null || { echo "check_sizes.sh: python3 is needed (Debian: apt-get install python3)" >&2; exit 2; }

max_file=500
max_function=80
while [ $# -gt 0 ]; do
  case "$1" in
    --max-file) max_file=$2; shift 2 ;;
    --max-function) max_function=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -gt 0 ]; then
  files=("$@")
else
  cd "$(dirname "$0")/.."
  mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' ':!:tests/')
fi

exec python3 - "$max_file" "$max_function" "${files[@]}" <<'EOF'
import re
import sys

max_file, max_function = int(sys.argv[1]), int(sys.argv[2])


def blank(src):
    """src with comments and string/char literals emptied; newlines kept, so line numbers hold."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * src.count('\n', i, j))
            i = j
        elif re.match(r'(?:u8|[uUL])?R"', src[i:i + 4]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == '_')):
            m = re.match(r'(?:u8|[uUL])?R"([^(\s]*)\(', src[i:])
            if not m:
                out.append(src[i]); i += 1; continue
            j = src.find(')' + m.group(1) + '"', i + m.end())
            j = n if j < 0 else j + len(m.group(1)) + 2
            out.append('""' + '\n' * src.count('\n', i, j))
            i = j
        elif src[i] == "'" and i > 0 and src[i - 1].isalnum() and src[i + 1:i + 2].isalnum():
            i += 1  # digit separator: 1'000'000
        elif src[i] in '"\'':
            q, j = src[i], i + 1
            while j < n and src[j] != q and src[j] != '\n':
                j += 2 if src[j] == '\\' else 1
            out.append(q + q)
            i = j + 1
        else:
            out.append(src[i]); i += 1
    return ''.join(out)


SCOPE = re.compile(r'\b(namespace|class|struct|union|enum)\b[^;(){}]*$')
FUNCTION = re.compile(r'\)\s*(const|noexcept|override|final|mutable|&|&&|->[^{;]*|\s)*$')
CTOR_INIT = re.compile(r'\)\s*:\s*[\s\S]*$')


def functions(text):
    """(first line, lines, head) of every function body at namespace or class scope."""
    stack, line, last, found = [], 1, 0, []
    for i, c in enumerate(text):
        if c == '\n':
            line += 1
        elif c == '{':
            head = text[last:i]
            outer = stack[-1][0] if stack else 'scope'
            if outer in ('fn', 'inner', 'init'):
                kind = 'inner'
            elif SCOPE.search(head) and ')' not in head.split('\n')[-1]:
                kind = 'scope'
            elif FUNCTION.search(head):
                kind = 'fn'
            elif CTOR_INIT.search(head) and re.search(r'[\w>]\s*$', head):
                kind = 'init'  # a member's brace initializer inside a constructor's initializer list
            elif CTOR_INIT.search(head) or (outer == 'scope' and stack and stack[-1][3] and re.match(r'^\s*,?[\s\S]*\)\s*$', head)):
                kind = 'fn'
            else:
                kind = 'scope' if outer == 'scope' else 'inner'
            stack.append((kind, line, ' '.join(head.split())[-90:], False))
            last = i + 1
        elif c == '}':
            if stack:
                kind, first, head, _ = stack.pop()
                if kind == 'fn':
                    found.append((first, line - first + 1, head))
                if kind == 'init' and stack:  # the constructor's body may follow
                    k, l, h, _ = stack[-1]
                    stack[-1] = (k, l, h, True)
            last = i + 1
        elif c == ';':
            last = i + 1
    return found


bad = 0
for path in sys.argv[3:]:
    src = open(path, encoding='utf-8', errors='replace').read()
    n = src.count('\n') + (0 if src.endswith('\n') or not src else 1)
    if n > max_file:
        print(f'{path}: {n} lines (max {max_file})')
        bad += 1
    for first, lines, head in functions(blank(src)):
        if lines > max_function:
            print(f'{path}:{first}: function of {lines} lines (max {max_function}): {head}')
            bad += 1
if bad:
    print(f'check_sizes: {bad} over the limits', file=sys.stderr)
else:
    print(f'check_sizes: {len(sys.argv) - 3} files, none over {max_file} lines, no function over {max_function}')
sys.exit(1 if bad else 0)
EOF
