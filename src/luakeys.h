/* luakeys.h — field names given twice in one table constructor of a Lua
 * chunk, found by a token scan of its source.
 *
 * Lua keeps the last of `{layers = 32, layers = 40}` without a word, and
 * a loaded table cannot show that there were two; import-hf refuses a JSON
 * object naming a key twice, so a spec file should not pass what its JSON
 * source could not (fixRC #6).  The scan follows Lua 5.4's lexer (llex.c):
 * short strings with their escapes, long strings and comments at any level
 * ([==[ ]==]), names, numbers, and the two-character operators, so text in
 * a string or comment is never read as a key.  A key is `Name =` right
 * after a constructor's `{`, `,` or `;`, with the constructor the innermost
 * thing open: a function body inside a table (function ... end, and the
 * if/do/repeat blocks within) holds statements, not fields, and `a = 1`
 * there is not one.  `["name"] = v` keys and keys computed at run time are
 * not compared.  Uses only the C library. */
#ifndef RL_LUAKEYS_H
#define RL_LUAKEYS_H

#include <stddef.h>

/* Scan the Lua source text[0..len), which must already have loaded without
 * a syntax error (the scan trusts its nesting), for a table constructor
 * naming one field twice.  Returns 1 with "field 'PATH': given twice in
 * one table, at lines A and B (...)" in err (PATH dotted through the keys
 * that hold the table: flops.bf16), 0 when there is none, -1 when out of
 * memory (err says so) or when the text's nesting does not scan (no
 * verdict: err empty). */
int rl_lua_duplicate_key(const char *text, size_t len, char *err, size_t errlen);

#endif
