#!/usr/bin/env python3
"""Fails when a Swift file under Sources/ is over 400 lines or a function
(func, init, deinit, subscript, accessor-less computed property bodies are
not counted) is over 60 lines, from its signature to its closing brace.
Usage: Scripts/check-size.py [folder...] (default: Sources)."""
import os
import re
import sys

MAX_FILE, MAX_FUNCTION = 400, 60
DECLARATION = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|class|'
                         r'final|override|mutating|nonmutating|nonisolated|convenience|required|@inlinable|@usableFromInline)\s+)*'
                         r'(?:func\s|init[(<?!]|deinit\b|subscript[(<])')


def code(line):
    """The line without string literals and a trailing // comment."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split('//', 1)[0]


def functions(lines):
    """(name line, length) of each function, counted by its braces."""
    index = 0
    while index < len(lines):
        if not DECLARATION.match(lines[index]):
            index += 1
            continue
        start, depth, opened = index, 0, False
        while index < len(lines):
            text = code(lines[index])
            depth += text.count('{') - text.count('}')
            opened = opened or '{' in text
            if opened and depth <= 0:
                break
            if not opened and index > start and DECLARATION.match(lines[index]):
                break  # a protocol requirement: no body
            index += 1
        if opened:
            yield start + 1, index - start + 1
        index = start + 1


def main():
    failures = []
    for top in sys.argv[1:] or ['Sources']:
        for folder, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith('.swift'):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8', errors='replace') as file:
                    lines = file.read().split('\n')
                if lines and lines[-1] == '':
                    lines.pop()
                if len(lines) > MAX_FILE:
                    failures.append(f'{path}: {len(lines)} lines (at most {MAX_FILE})')
                for line, length in functions(lines):
                    if length > MAX_FUNCTION:
                        failures.append(f'{path}:{line}: a function of {length} lines (at most {MAX_FUNCTION})')
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
