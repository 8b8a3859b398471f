/* luakeys.c — field names given twice in one table constructor of a Lua
 * chunk: a token scan after Lua 5.4's lexer (llex.c); luakeys.h. */
#include "luakeys.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    T_EOF,
    T_NAME,
    T_EQ, /* a single '=' */
    T_LBRACE,
    T_RBRACE,
    T_LPAREN,
    T_RPAREN,
    T_LBRACK,
    T_RBRACK,
    T_SEP, /* ',' or ';': a constructor's field separators */
    T_OPEN, /* function, if, do: a block closed by end */
    T_REPEAT,
    T_END,
    T_UNTIL,
    T_OTHER /* any other token: a number, a string, an operator, a keyword */
};

/* what is open: a table constructor, a bracket, or a block of statements */
enum { F_TABLE, F_PAREN, F_BRACK, F_BLOCK, F_REPEAT };

typedef struct {
    const char *p, *end;
    long line;
    const char *tok; /* the token's text (names) */
    size_t toklen;
} lexer;

typedef struct {
    const char *name;
    size_t len;
    long line;
} key;

typedef struct {
    int kind;
    size_t key0;   /* its keys: keys[key0..nkeys) while it is open */
    char path[96]; /* the keys holding it, dotted ("" at the top) */
} frame;

/* A newline at l->p ("\n", "\r", "\r\n" or "\n\r": one line, as llex.c
 * inclinenumber), skipped. */
static void newline(lexer *l)
{
    char c = *l->p++;
    if (l->p < l->end && (*l->p == '\n' || *l->p == '\r') && *l->p != c)
        l->p++;
    l->line++;
}

/* At '[': the level of a long bracket "[" "="* "[" (its '='s), or -1. */
static int long_open(const lexer *l, const char *at)
{
    const char *q = at + 1;
    while (q < l->end && *q == '=')
        q++;
    return q < l->end && *q == '[' ? (int)(q - at - 1) : -1;
}

/* Skip a long string or comment of `level` from its opening '[' at l->p;
 * 0, or -1 when it does not close. */
static int skip_long(lexer *l, int level)
{
    l->p += level + 2;
    while (l->p < l->end) {
        if (*l->p == '\n' || *l->p == '\r') {
            newline(l);
            continue;
        }
        if (*l->p == ']') {
            const char *q = l->p + 1;
            while (q < l->end && *q == '=')
                q++;
            if (q < l->end && *q == ']' && q - l->p - 1 == level) {
                l->p = q + 1;
                return 0;
            }
        }
        l->p++;
    }
    return -1;
}

/* Skip a short string from its quote at l->p: escapes skip their next
 * character (a newline after '\' counted, as \z's whitespace is); 0, or -1
 * when it does not close. */
static int skip_quoted(lexer *l)
{
    char q = *l->p++;
    while (l->p < l->end && *l->p != q) {
        if (*l->p == '\\' && l->p + 1 < l->end) {
            l->p++;
            if (*l->p == '\n' || *l->p == '\r') {
                newline(l);
                continue;
            }
        } else if (*l->p == '\n' || *l->p == '\r') {
            newline(l); /* \z's whitespace reaches here only after a '\' */
            continue;
        }
        l->p++;
    }
    if (l->p >= l->end)
        return -1;
    l->p++;
    return 0;
}

static int keyword(const char *s, size_t n)
{
    static const struct {
        const char *w;
        int t;
    } KW[] = {{"function", T_OPEN}, {"if", T_OPEN},   {"do", T_OPEN},     {"repeat", T_REPEAT},
              {"end", T_END},       {"until", T_UNTIL}, {"and", T_OTHER},  {"break", T_OTHER},
              {"else", T_OTHER},    {"elseif", T_OTHER}, {"false", T_OTHER}, {"for", T_OTHER},
              {"goto", T_OTHER},    {"in", T_OTHER},   {"local", T_OTHER}, {"nil", T_OTHER},
              {"not", T_OTHER},     {"or", T_OTHER},   {"return", T_OTHER}, {"then", T_OTHER},
              {"true", T_OTHER},    {"while", T_OTHER}};
    for (size_t i = 0; i < sizeof KW / sizeof KW[0]; i++)
        if (strlen(KW[i].w) == n && memcmp(KW[i].w, s, n) == 0)
            return KW[i].t;
    return T_NAME;
}

/* The next token; -1 on a string or comment that does not close. */
static int next_token(lexer *l)
{
    for (;;) {
        if (l->p >= l->end)
            return T_EOF;
        char c = *l->p;
        if (c == '\n' || c == '\r') {
            newline(l);
        } else if (isspace((unsigned char)c)) {
            l->p++;
        } else if (c == '-' && l->p + 1 < l->end && l->p[1] == '-') {
            l->p += 2;
            int level = l->p < l->end && *l->p == '[' ? long_open(l, l->p) : -1;
            if (level >= 0) {
                if (skip_long(l, level) != 0)
                    return -1;
            } else
                while (l->p < l->end && *l->p != '\n' && *l->p != '\r')
                    l->p++;
        } else
            break;
    }
    const char c = *l->p;
    if (isalpha((unsigned char)c) || c == '_') {
        l->tok = l->p;
        while (l->p < l->end && (isalnum((unsigned char)*l->p) || *l->p == '_'))
            l->p++;
        l->toklen = (size_t)(l->p - l->tok);
        return keyword(l->tok, l->toklen);
    }
    if (isdigit((unsigned char)c) || (c == '.' && l->p + 1 < l->end && isdigit((unsigned char)l->p[1]))) {
        char prev = 0; /* a numeral: digits, '.', letters, an exponent's sign (llex.c read_numeral) */
        while (l->p < l->end && (isalnum((unsigned char)*l->p) || *l->p == '.' || *l->p == '_' ||
                                 ((*l->p == '+' || *l->p == '-') && strchr("eEpP", prev) && prev)))
            prev = *l->p++;
        return T_OTHER;
    }
    if (c == '"' || c == '\'')
        return skip_quoted(l) == 0 ? T_OTHER : -1;
    if (c == '[') {
        int level = long_open(l, l->p);
        if (level >= 0)
            return skip_long(l, level) == 0 ? T_OTHER : -1;
        l->p++;
        return T_LBRACK;
    }
    l->p++;
    switch (c) {
    case '=':
        if (l->p < l->end && *l->p == '=') {
            l->p++;
            return T_OTHER;
        }
        return T_EQ;
    case '<': case '>': case '~':
        if (l->p < l->end && *l->p == '=')
            l->p++;
        return T_OTHER;
    case '{': return T_LBRACE;
    case '}': return T_RBRACE;
    case '(': return T_LPAREN;
    case ')': return T_RPAREN;
    case ']': return T_RBRACK;
    case ',': case ';': return T_SEP;
    default: return T_OTHER;
    }
}

/* up "." name[0..len) into path[cap] (name alone at the top), cut to fit. */
static void join_path(char *path, size_t cap, const char *up, const char *name, size_t len)
{
    size_t at = strlen(up);
    at = at < cap - 1 ? at : cap - 1;
    memcpy(path, up, at);
    if (at > 0 && at + 1 < cap)
        path[at++] = '.';
    if (len > cap - 1 - at)
        len = cap - 1 - at;
    if (len) /* name may be NULL with len 0 */
        memcpy(path + at, name, len);
    path[at + len] = '\0';
}

static int by_name_line(const void *a, const void *b)
{
    const key *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, n);
    if (c || x->len != y->len)
        return c ? c : x->len < y->len ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* The keys k[0..n) of one constructor: 1 with err set when one is there
 * twice (the pair whose second line comes first), else 0. */
static int twice(key *k, size_t n, const char *path, char *err, size_t errlen)
{
    if (n < 2) /* k may be NULL (a table with no named field): qsort's UB */
        return 0;
    qsort(k, n, sizeof *k, by_name_line);
    const key *a = NULL, *b = NULL;
    for (size_t i = 1; i < n; i++) /* sorted: a name's lines are neighbours, in order */
        if (k[i].len == k[i - 1].len && memcmp(k[i].name, k[i - 1].name, k[i].len) == 0 &&
            (!b || k[i].line < b->line)) {
            a = &k[i - 1];
            b = &k[i];
        }
    if (!b)
        return 0;
    snprintf(err, errlen, "field '%s%s%.*s': given twice in one table, at lines %ld and %ld "
             "(Lua keeps the last without a word, so which one is meant is unclear); keep one",
             path, *path ? "." : "", (int)(a->len < 64 ? a->len : 64), a->name, a->line, b->line);
    return 1;
}

/* Room in the array *a (*cap elements of `size` bytes) for element n,
 * doubled when full; 0, or -1 out of memory (*a kept). */
static int room(void **a, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 32;
    void *g = realloc(*a, c * size);
    if (!g)
        return -1;
    *a = g;
    *cap = c;
    return 0;
}

int rl_lua_duplicate_key(const char *text, size_t len, char *err, size_t errlen)
{
    lexer l = {text, text + len, 1, NULL, 0};
    frame *f = NULL;
    key *k = NULL;
    size_t nf = 0, capf = 0, nk = 0, capk = 0;
    int rc = 0, prev = T_SEP, t;
    const char *pending = NULL; /* a Name in key position, until its '=' */
    size_t plen = 0;
    long pline = 0;
    const key *last = NULL; /* the key whose '=' was the previous token */
    err[0] = '\0';
    while ((t = next_token(&l)) != T_EOF) {
        int top = nf ? f[nf - 1].kind : -1;
        if (t < 0) {
            rc = -1;
            break;
        }
        const key *just = NULL;
        if (t == T_EQ && pending) { /* Name '=' in key position: a field */
            if (room((void **)&k, &capk, nk, sizeof *k) != 0) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            k[nk] = (key){pending, plen, pline};
            just = &k[nk++];
        }
        pending = NULL;
        if (t == T_NAME && top == F_TABLE && (prev == T_LBRACE || prev == T_SEP)) {
            pending = l.tok;
            plen = l.toklen;
            pline = l.line;
        }
        int open = t == T_LBRACE ? F_TABLE : t == T_LPAREN ? F_PAREN : t == T_LBRACK ? F_BRACK
                   : t == T_OPEN ? F_BLOCK : t == T_REPEAT ? F_REPEAT : -1;
        if (open >= 0) {
            if (room((void **)&f, &capf, nf, sizeof *f) != 0) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            frame *n = &f[nf];
            n->kind = open;
            n->key0 = nk;
            const char *up = nf ? f[nf - 1].path : "";
            if (open == F_TABLE && last && prev == T_EQ) /* name = { ... } */
                join_path(n->path, sizeof n->path, up, last->name, last->len);
            else
                memmove(n->path, up, strlen(up) + 1);
            nf++;
        }
        int close = t == T_RBRACE ? F_TABLE : t == T_RPAREN ? F_PAREN : t == T_RBRACK ? F_BRACK
                    : t == T_END ? F_BLOCK : t == T_UNTIL ? F_REPEAT : -1;
        if (close >= 0) {
            if (top != close) { /* not as a loaded chunk nests: no verdict */
                rc = -1;
                break;
            }
            frame *c = &f[nf - 1];
            if (close == F_TABLE && nk - c->key0 >= 2 && /* k is NULL before a key */
                twice(k + c->key0, nk - c->key0, c->path, err, errlen)) {
                rc = 1;
                break;
            }
            nk = c->key0;
            nf--;
        }
        last = just; /* the key just named, for a '{' that follows its '=' */
        prev = t;
    }
    free(f);
    free(k);
    return rc;
}
