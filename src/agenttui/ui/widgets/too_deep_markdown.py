"""Markdown nested deeper than the parser goes is shown as written, not dropped.

markdown-it stops at ``maxNesting`` (20 in the "gfm-like" preset Textual uses): a block
that would open one level more makes it skip to the end of the enclosing block -- and
the enclosing block of a nested list item runs to the end of the reply. A reply with a
list ten levels deep (a file tree written as nested bullets) showed its first nine levels
and nothing after them: the rest of the list, and every paragraph, table and code block
below it, was missing from the chat (history and ctrl+o had it all).

:func:`keep_too_deep` adds a block rule that runs where one more list or quote would
reach that limit, and takes the rest of the enclosing block as a code block of its
lines as written: what is too deep to lay out is still on screen, and the reply goes on
below it. The limit stays (a deeper tree of widgets only costs more to lay out).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, blockquote, hr, list_block

# a list opens two levels (the list, its item) before the item's blocks are parsed
_LEVELS_PER_CONTAINER = 2


def keep_too_deep(md: MarkdownIt) -> MarkdownIt:
    """``md`` with the rule that keeps too-deep blocks (module doc); returns ``md``."""
    md.block.ruler.before("blockquote", "too_deep", _too_deep)
    return md


def _opens_container(state: StateBlock, line: int, end_line: int) -> bool:
    if hr(state, line, end_line, True):  # "- - -" is a rule, not a list
        return False
    return list_block(state, line, end_line, True) or blockquote(state, line, end_line, True)


def _too_deep(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if state.level < state.md.options.maxNesting - _LEVELS_PER_CONTAINER:
        return False
    # indented 4 or more: an indented code block (StateBlock.is_code_block, not in markdown-it-py 2.x)
    if state.sCount[start_line] - state.blkIndent >= 4 or not _opens_container(state, start_line, end_line):
        return False
    if silent:
        return True
    last, line = start_line, start_line + 1
    while line < end_line:  # the enclosing block's lines: indented at least as far as it is
        if not state.isEmpty(line):
            if state.sCount[line] < state.blkIndent:
                break
            last = line
        line += 1
    state.line = last + 1
    token = state.push("code_block", "code", 0)
    token.content = state.getLines(start_line, state.line, state.blkIndent, True)
    token.map = [start_line, state.line]
    return True
