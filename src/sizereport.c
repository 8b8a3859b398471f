/* sizereport.c — sizing report in Markdown or HTML with inline SVG (see sizereport.h). */
#include "sizereport.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch.h"
#include "comm.h"
#include "efficiency.h"
#include "memory.h"
#include "number.h"
#include "ops.h"
#include "result.h"

/* ---- a document that is Markdown or HTML ---- */

typedef struct {
    FILE *f;
    int html;
    int in_list;
} doc;

/* Whether the Markdown text at s starts raw HTML, an entity or a code span
 * (CommonMark 0.31, sec. 6.6 raw HTML: '<' then a tag name's letter, '/',
 * '!' or '?'; sec. 2.5 entities: '&' then a name or '#'; sec. 6.1 code
 * spans: '`'): escaped with a backslash (sec. 2.4), which renders the
 * character itself.  A '<' before a space or '=' (the text's "p99 <= 5")
 * starts nothing and stays as written. */
static int md_markup(const char *s)
{
    unsigned char n = (unsigned char)s[1];
    int letter = (n | 0x20) >= 'a' && (n | 0x20) <= 'z';
    return (s[0] == '<' && (letter || (n && strchr("/!?", n)))) ||
           (s[0] == '&' && (letter || n == '#')) || s[0] == '`';
}

/* s in d's markup: HTML's <, > and &; in Markdown what would start raw
 * HTML, an entity or a code span (md_markup; tester31 F11: a spec's name
 * "<script>..." and source "<img ... onerror=...>" passed into the .md
 * report raw, which renderers that allow inline HTML run), and `|` only
 * inside a table cell (`cell`), where it would end the cell (GFM: `\|`,
 * code spans too); elsewhere `\|` would print its backslash, in a code
 * span as text (tester28 F11: the Command line's `--set 'model.name=a\|b'`
 * was not the command run; the Command's code span is md_code's). */
static void esc_in(doc *d, const char *s, int cell)
{
    for (; *s; s++) {
        if (d->html && *s == '<')
            fputs("&lt;", d->f);
        else if (d->html && *s == '>')
            fputs("&gt;", d->f);
        else if (d->html && *s == '&')
            fputs("&amp;", d->f);
        else if (!d->html && ((cell && *s == '|') || md_markup(s)))
            fprintf(d->f, "\\%c", *s);
        else
            fputc(*s, d->f);
    }
}

static void esc(doc *d, const char *s) { esc_in(d, s, 0); }

/* fmt's text, escaped: in buf when it fits, else in a buffer of its
 * measured size (buf alone cut a longer paragraph short, unsaid; out of
 * memory: buf's cut text). */
static void vtext(doc *d, const char *fmt, va_list ap)
{
    char buf[2048], *s = buf;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n >= (int)sizeof buf && (s = malloc((size_t)n + 1)) != NULL)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    esc(d, s ? s : buf);
    if (s != buf)
        free(s);
}

static void end_list(doc *d)
{
    if (d->in_list)
        fputs(d->html ? "</ul>\n" : "\n", d->f);
    d->in_list = 0;
}

static void heading(doc *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void heading(doc *d, int level, const char *fmt, ...)
{
    end_list(d);
    va_list ap;
    va_start(ap, fmt);
    if (d->html)
        fprintf(d->f, "<h%d>", level);
    else
        fprintf(d->f, "%.*s ", level, "######");
    vtext(d, fmt, ap);
    va_end(ap);
    fprintf(d->f, d->html ? "</h%d>\n" : "\n\n", level);
}

/* A paragraph (list 0) or a list item (list 1) of formatted text. */
static void block(doc *d, int list, const char *fmt, va_list ap)
{
    if (!list)
        end_list(d);
    else if (!d->in_list && d->html)
        fputs("<ul>\n", d->f);
    d->in_list = list;
    fputs(d->html ? (list ? "<li>" : "<p>") : (list ? "- " : ""), d->f);
    vtext(d, fmt, ap);
    fputs(d->html ? (list ? "</li>\n" : "</p>\n") : (list ? "\n" : "\n\n"), d->f);
}

static void para(doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void para(doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    block(d, 0, fmt, ap);
    va_end(ap);
}

static void item(doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void item(doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    block(d, 1, fmt, ap);
    va_end(ap);
}

/* A Markdown list item: label, then text verbatim in a code span, its
 * fence one backtick longer than text's longest run of them and spaced off
 * a backtick at either end (CommonMark 0.31, sec. 6.1); nothing in it is
 * markup, so nothing is escaped. */
static void md_code_item(doc *d, const char *label, const char *text)
{
    size_t run = 0, most = 0;
    for (const char *c = text; *c; c++)
        if ((run = *c == '`' ? run + 1 : 0) > most)
            most = run;
    size_t n = strlen(text);
    const char *pad = n && (text[0] == '`' || text[n - 1] == '`') ? " " : "";
    d->in_list = 1;
    fprintf(d->f, "- %s", label);
    for (int end = 0; end < 2; end++) {
        if (end)
            fprintf(d->f, "%s%s%s", pad, text, pad);
        for (size_t i = 0; i <= most; i++)
            fputc('`', d->f);
    }
    fputc('\n', d->f);
}

static void row(doc *d, int header, int n, char cells[][96])
{
    end_list(d);
    if (d->html) {
        if (header)
            fputs("<table>\n", d->f);
        fputs("<tr>", d->f);
        for (int i = 0; i < n; i++) {
            /* numbers right-aligned, text left */
            int text = !strchr("0123456789-.", cells[i][0]);
            fputs(header ? "<th>" : text ? "<td class=\"t\">" : "<td>", d->f);
            esc(d, cells[i]);
            fputs(header ? "</th>" : "</td>", d->f);
        }
        fputs("</tr>\n", d->f);
        return;
    }
    fputs("|", d->f);
    for (int i = 0; i < n; i++) {
        fputc(' ', d->f);
        esc_in(d, cells[i], 1);
        fputs(" |", d->f);
    }
    fputc('\n', d->f);
    if (header) {
        fputs("|", d->f);
        for (int i = 0; i < n; i++)
            fputs(" --- |", d->f);
        fputc('\n', d->f);
    }
}

static void table_end(doc *d) { fputs(d->html ? "</table>\n" : "\n", d->f); }

/* HTML: the chart inline; Markdown: nothing (the tables carry the data). */
static void figure(doc *d, char *svg, const char *caption)
{
    if (d->html && svg)
        fprintf(d->f, "<figure>%s<figcaption>%s</figcaption></figure>\n", svg, caption);
    free(svg);
}

/* ---- SVG charts ---- */

static double nice_step(double span)
{
    double e = pow(10, floor(log10(span / 5))), m = span / 5 / e;
    return e * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

char *rl_svg_chart(const char *title, const char *xlabel, const char *ylabel,
                   const rl_svg_series *s, int ns, double hline, const char *hlabel)
{
    /* the first ten of matplotlib's "tab10" palette order (a series each,
     * up to a hardware per size --hw entry and the frontier: stop 48 #2) */
    static const char *colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    const double W = 640, H = 360, L = 70, R = 160, T = 30, B = 50;
    double x0 = INFINITY, x1 = -INFINITY, y0 = 0, y1 = hline > 0 ? hline : -INFINITY;
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < s[k].n; i++) {
            if (!isfinite(s[k].x[i]) || !isfinite(s[k].y[i]))
                continue;
            x0 = fmin(x0, s[k].x[i]);
            x1 = fmax(x1, s[k].x[i]);
            y1 = fmax(y1, s[k].y[i]);
        }
    if (!isfinite(x0) || !isfinite(y1))
        x0 = 0, x1 = 1, y1 = 1;
    if (x1 <= x0)
        x1 = x0 + 1;
    if (y1 <= y0)
        y1 = y0 + 1;
    int clipped = hline > 0 && y1 > 4 * hline;
    if (clipped)
        y1 = 4 * hline; /* keep the target readable; larger values sit on the top edge */
    double xs = nice_step(x1 - x0), ys = nice_step(y1 * 1.1 - y0);
    x0 = floor(x0 / xs) * xs;
    x1 = ceil(x1 / xs) * xs;
    y1 = ceil(y1 * 1.1 / ys) * ys;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
#define PX(x) (L + ((x) - x0) / (x1 - x0) * (W - L - R))
#define PY(y) (H - B - ((y) - y0) / (y1 - y0) * (H - T - B))
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">"
            "<title>%s</title><rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>"
            "<text x=\"%.0f\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>\n",
            W, H, W, H, title, L, title);
    for (double x = x0; x <= x1 + xs / 2; x += xs)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
                PX(x), PY(y0), PX(x), PY(y1), PX(x), PY(y0) + 16, x);
    for (double y = y0; y <= y1 + ys / 2; y += ys)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                PX(x0), PY(y), PX(x1), PY(y), PX(x0) - 6, PY(y) + 4, y);
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>"
            "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
            (PX(x0) + PX(x1)) / 2, H - 12, xlabel, (PY(y0) + PY(y1)) / 2, ylabel);
    /* the legend (and the clipping note) in the right margin, at the top or
     * the bottom, away from the target line's label */
    int notes = ns + clipped;
    double ly = hline > 0 && PY(hline) < (T + H - B) / 2 ? H - B - 20.0 * notes : T + 10;
    for (int k = 0; k < ns; k++) {
        const char *col = colors[k % 10];
        if (!s[k].points_only) {
            fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
            for (int i = 0; i < s[k].n; i++)
                if (isfinite(s[k].y[i]))
                    fprintf(f, "%.1f,%.1f ", PX(s[k].x[i]), PY(fmin(s[k].y[i], y1)));
            fputs("\"/>\n", f);
        }
        for (int i = 0; i < s[k].n; i++)
            if (isfinite(s[k].y[i]))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>", PX(s[k].x[i]),
                        PY(fmin(s[k].y[i], y1)), col);
        fprintf(f,
                "\n<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                W - R + 12, ly + 20.0 * k, col, W - R + 30, ly + 10 + 20.0 * k, s[k].name);
    }
    if (hline > 0)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
                "stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                PX(x0), PY(hline), PX(x1), PY(hline), PX(x1) + 4, PY(hline) + 4, hlabel);
    if (clipped)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">values above %g clipped</text>\n",
                W - R + 12, ly + 10 + 20.0 * ns, y1);
    fputs("</svg>", f);
#undef PX
#undef PY
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* ---- the report ---- */

static const char *cost_unit(const rl_size_result *r) { return r->priced ? "USD/h" : "chips"; }

/* What the report says for a TPOT when no request had two output tokens
 * (size.h no_tpot; JSON null, as simulate's "-": tester19 F4). */
#define NO_TPOT "n/a (1-token outputs)"

/* A TPOT of s seconds in ms to dec places, or NO_TPOT when none was seen. */
static void tpot_ms(char *cell, size_t n, double s, int dec, int none)
{
    if (none)
        snprintf(cell, n, NO_TPOT);
    else
        snprintf(cell, n, "%.*f", dec, s * 1e3);
}

/* A time s in ms at `dec` decimals, more (up to 3) where s is over `target`
 * (s) and would print at or below it: a missed figure never reads equal to
 * its target (fixIK #2: TPOT p99 6.517 ms read "6.5 ms" against 6.5). */
static void ms_vs_target(char *cell, size_t n, double s, double target, int dec)
{
    int d = dec;
    while (target > 0 && s > target && d < dec + 3) {
        char t[64];
        snprintf(t, sizeof t, "%.*f", d, s * 1e3);
        if (strtod(t, NULL) > target * 1e3)
            break;
        d++;
    }
    snprintf(cell, n, "%.*f", d, s * 1e3);
}

/* The report's flag for the recommendation's workload (the load curve and
 * the sensitivity rows serve the same requests' lengths). */
static int report_no_tpot(const rl_size_report_data *x)
{
    return x->res->n > 0 && x->res->c[0].no_tpot;
}

/* A time s in ms at `dec` decimals, with c's band beside it when it has
 * one: "v (lo-hi)", the band of size's JSON rows (the runs at the band's
 * edges, size.h rl_size_candidate.edge; k indexes them). */
static void time_cell(char *cell, size_t n, double s, int dec, const rl_size_candidate *c, int k)
{
    if (!isfinite(s)) /* --conservative, no centre run (the band runs' budget spent) */
        snprintf(cell, n, "n/a");
    else if (c->banded)
        snprintf(cell, n, "%.*f (%.*f%s-%.*f%s)", dec, s * 1e3, dec, fmin(c->edge[0][k], s) * 1e3,
                 c->edge[0][k] > s ? "*" : "", dec, fmax(c->edge[1][k], s) * 1e3,
                 c->edge[1][k] < s ? "*" : "");
    else
        snprintf(cell, n, "%.*f", dec, s * 1e3);
}

/* Whether row c shows a p99 band edge clamped to its figure (time_cell's
 * mark: the edge's run read inside it; e2e.c rl_e2e_band_from_runs's
 * _clamped keys). */
/* A meeting row's "meets" cell: "yes", or where its capacity search left
 * max_sustainable_qps unresolved the p99s alone (rl_size_verdict_note,
 * fixJH); the candidate tables and the Sensitivity table alike (fixNI #5:
 * the latter printed a bare "yes" for such a row). */
static const char *meets_yes(const rl_size_candidate *c)
{
    return c->verdict_by == RL_SIZE_VERDICT_P99 ? "yes on p99s only: capacity not established"
                                                : "yes";
}

/* The meets cell of a row that met the targets at p99: yes, or, where
 * its capacity falls short of the load it was judged at, "no: sustains
 * under" it (size.h rl_size_decide); one wording for the tables' rows and
 * the sensitivity's (fixWE #2). */
static void meets_by_rule(char *buf, size_t len, const rl_size_candidate *c)
{
    if (c->meets)
        snprintf(buf, len, "%s", meets_yes(c));
    else
        snprintf(buf, len, "no: sustains under %.3g req/s", c->fails_at_qps);
}

static int p99_clamped(int conservative, const rl_size_candidate *c)
{
    const double f[2] = {rl_size_time(conservative, c, 1), rl_size_time(conservative, c, 3)};
    int any = 0;
    for (int i = 0; c->banded && i < 2 && !(i && c->no_tpot); i++)
        any |= c->edge[0][2 * i + 1] > f[i] || c->edge[1][2 * i + 1] < f[i];
    return any;
}

/* The mark's meaning, after a table or band that showed one. */
static const char CLAMP_NOTE[] =
    "A band edge marked * is clamped to the figure: the run at that edge came out on the "
    "figure's other side "
    "(chunked scheduling is not monotone in the step cost; docs/model.md, Bands in simulate and "
    "size), so that side shows no spread, and --conservative adds no margin there.";

static void candidate_row(doc *d, const rl_size_report_data *x, int rank, const rl_size_candidate *c)
{
    char cells[12][96];
    snprintf(cells[0], 96, "%d", rank);
    rl_size_label(x->in, c, cells[1], 96);
    snprintf(cells[2], 96, "%lld", c->chips_total);
    snprintf(cells[3], 96, x->res->priced ? "%.2f" : "%.0f", c->cost_per_hour);
    /* the central prediction, as the JSON keys (rl_size_time; fixND #2) */
    const int cons = x->in->conservative;
    time_cell(cells[4], 96, rl_size_time(cons, c, 1), 0, c, 1);
    if (c->no_tpot)
        tpot_ms(cells[5], 96, 0, 1, 1);
    else
        time_cell(cells[5], 96, rl_size_time(cons, c, 3), 1, c, 3);
    snprintf(cells[6], 96, "%.2f", rl_size_time(cons, c, 4));
    snprintf(cells[7], 96, "%.0f", c->steady_out_tokens_per_s);
    snprintf(cells[8], 96, "%.0f%%", 100 * c->utilization);
    snprintf(cells[9], 96, "%.1f", c->mean_decode_batch);
    /* the load at which it stops meeting the targets (max_sustainable_qps;
     * h31audit finding 13: only the recommendation said it) */
    if (isfinite(c->max_qps))
        snprintf(cells[10], 96, "%s%.3g", c->max_qps_lower_bound ? ">= " : "", c->max_qps);
    else
        snprintf(cells[10], 96, "n/a");
    char why[64];
    if (c->meets || c->verdict_by == RL_SIZE_VERDICT_CAPACITY)
        meets_by_rule(cells[11], 96, c);
    else /* where and why (size.h rl_size_verify) */
        snprintf(cells[11], 96, "no: %s at %.3g req/s", rl_size_miss_names(c->fails_on, why, sizeof why),
                 c->fails_at_qps);
    row(d, 0, 12, cells);
}

static void candidate_header(doc *d, const rl_size_input *in, const rl_size_result *r)
{
    char h[12][96] = {"#", "configuration", "chips", "", "TTFT p99 (ms; band where known)",
                      "TPOT p99 (ms; band where known)",
                      "E2E p50 (s)", "output tok/s", "busy", "mean batch", "sustains (req/s)",
                      "meets SLO"};
    snprintf(h[3], 96, "cost (%s)", cost_unit(r));
    if (in->conservative) { /* fixND #2: which figure the verdict columns used */
        snprintf(h[10], 96, "sustains (req/s; at the band's high edge)");
        snprintf(h[11], 96, "meets SLO (sized against the band's high edge)");
    }
    row(d, 1, 12, h);
}

/* The mode of hardware hw's first row (the one the table and the
 * provenance line show; rl_size_mode), or the profile's own without rows. */
static const char *hw_mode(const rl_size_report_data *x, int hw)
{
    for (int i = 0; i < x->res->n; i++)
        if (x->res->c[i].hw == hw)
            return rl_size_mode(x->in, &x->res->c[i]);
    return rl_hw_default_mode(&x->in->hw[hw], x->in->calibrated);
}

/* What times a plan on hardware h, the one classification the Mode lines,
 * the caution and the cheapest-per-hardware notes word (review28 L2 left
 * two: mode_caution checked a what-if, evidence_of any profile whose tables
 * read short of calibrated, and they named one case two ways):
 * EV_DATASHEET nothing measured on h (TPU presets); EV_OTHER another
 * chip's measurements (spec.h rl_hw_mode short of calibrated: a what-if,
 * h100-pcie over h100-sxm's tables, or tables measured elsewhere);
 * EV_DERIVED a measured chip, but the plan's own mode (rl_size_mode) is
 * estimated: its dtypes derived or at the roofline (int8 on h100-sxm:
 * table_time_share 0); EV_MEASURED its own measurements; EV_FITTED engine
 * costs fitted to this chip's end-to-end rows (`roofline fit`), the plan
 * inside what they were fitted on (mode fitted), EV_FIT_OUTSIDE outside it
 * (mode estimated, fitted_outside) (tester63 #3: a fitted profile was
 * EV_OTHER, "another chip's measured kernels", beside its rows' mode
 * fitted).  `mode`: the plan's mode, NULL for the hardware's own. */
enum { EV_DATASHEET, EV_OTHER, EV_DERIVED, EV_MEASURED, EV_FITTED, EV_FIT_OUTSIDE, EV_KINDS };

static int evidence_of(const rl_size_input *in, int h, const char *mode)
{
    const rl_hw *hw = &in->hw[h];
    if (in->calibrated && hw->engine_costs.present && !hw->ideal && !rl_hw_what_if_of(hw))
        return !strcmp(mode ? mode : rl_hw_default_mode(hw, 1), "fitted") ? EV_FITTED
                                                                          : EV_FIT_OUTSIDE;
    if (!in->calibrated || !rl_hw_measured(hw))
        return EV_DATASHEET;
    if (strcmp(rl_hw_mode(&in->hw[h], 1), "calibrated") != 0)
        return EV_OTHER;
    return mode && !strcmp(mode, "estimated") ? EV_DERIVED : EV_MEASURED;
}

static const char *const EVIDENCE[EV_KINDS] = {
    "datasheet figures at full efficiency, nothing measured on this chip: optimistic beside a "
    "measured one",
    "another chip's measured kernel times, their roofline part moved to this chip's datasheet "
    "figures and their excess kept",
    "under half of a decode step's time comes from measured or interpolated kernel-table "
    "times, the rest derived or at the roofline: optimistic",
    "measured kernel times or efficiencies, Provenance below",
    "engine costs fitted to this chip's end-to-end benchmark rows (roofline fit), inside what "
    "they were fitted on, with their cross-validated band",
    "engine costs fitted to this chip's end-to-end benchmark rows (roofline fit), applied outside "
    "the models, dtypes, TP range or pipeline they were fitted on (the row's fitted_outside)"};

/* Evidence ev as a label, "estimated (...)", "fitted (...)" or
 * "calibrated (...)", into buf: the word its rows' mode reads. */
static const char *evidence_label(int ev, char *buf, size_t n)
{
    snprintf(buf, n, "%s (%s)", ev == EV_MEASURED ? "calibrated"
                                : ev == EV_FITTED ? "fitted"
                                                  : "estimated",
             EVIDENCE[ev]);
    return buf;
}

/* What a mode label short of measured means for the figures of a plan of
 * mode `mode` on hardware h ("" else): its evidence (evidence_of; stop 27:
 * the last case was said of all three). */
static const char *mode_caution(const char *mode, const rl_size_input *in, int h, char *buf,
                                size_t n)
{
    if (!strcmp(mode, "ideal"))
        return " (the roofline at full efficiency: optimistic)"; /* after "ideal": the word once */
    if (strcmp(mode, "estimated") != 0)
        return "";
    snprintf(buf, n, " (%s)", EVIDENCE[evidence_of(in, h, mode)]); /* after "estimated" */
    return buf;
}

/* stop 48 #1a: the recommended row's load-curve point at or below `upto`
 * req/s that misses a target (the lowest), or -1: its runs at the load and
 * at the sized load met them on their own samples, and the curve's own
 * sample a point may read otherwise near a target (sampling noise), which
 * the report then says rather than claim both. */
static int curve_miss_upto(const rl_size_report_data *x, double upto)
{
    const rl_size_curve *c = x->curve;
    const rl_size_input *in = x->in;
    if (!c || x->res->n < 1 || !x->res->c[0].meets)
        return -1;
    for (int i = 0; i < c->n; i++)
        if (c->qps[i] <= upto * (1 + 1e-9) &&
            (c->ttft_p99[i] > in->slo_ttft || c->tpot_p99[i] > in->slo_tpot))
            return i;
    return -1;
}

/* The recommendation block for candidate b. */
static void recommend(doc *d, const rl_size_report_data *x, const rl_size_candidate *b)
{
    const rl_size_input *in = x->in;
    char label[128];
    rl_size_label(in, b, label, sizeof label);
    if (d->html)
        fputs("<div class=\"rec\">", d->f);
    para(d, "Deploy %lld x %s: %s.", b->chips_total, in->hw[b->hw].name, label);
    const char *mode = rl_size_mode(in, b);
    char why[320];
    /* fixNI #8: the whole tie-break of size.c rl_size_rank as docs/serving.md
     * states it (the sentence stopped at "the one sustaining more load") */
    item(d, "Mode: %s%s; at equal cost a row of better evidence ranks first (fitted or "
            "calibrated, then estimated, then ideal), then one whose capacity was resolved "
            "before one resting on its p99s alone, then the one sustaining more load by "
            "bands 5%% wide of max_sustainable_qps, then the wider precision, then the lower "
            "TPOT p99.",
         mode, mode_caution(mode, in, b->hw, why, sizeof why));
    if (b->policy == RL_POLICY_DISAGG)
        item(d, "%d prefill replica%s and %d decode replica%s of %lld chips each; KV moves over "
                "the scale-out network.", /* "1 decode replicas" (tester77 #5) */
             b->prefill_replicas, b->prefill_replicas == 1 ? "" : "s", b->replicas,
             b->replicas == 1 ? "" : "s", b->chips);
    else {
        /* a pipeline replica runs pp batch streams, each with its own cap
         * (serve.h virtual engines; tester35 F5: "at most 32 sequences per
         * replica" for a tp8 pp2 B<=32 plan that runs 64 at once) */
        char cap[160];
        if (b->pp > 1)
            snprintf(cap, sizeof cap, "at most %d sequences per batch stream x %lld streams (%lld "
                                      "per replica)",
                     b->max_seqs, b->pp, b->pp * b->max_seqs);
        else
            snprintf(cap, sizeof cap, "at most %d sequences per replica", b->max_seqs);
        item(d, "%d replica(s) of %lld chips each (one copy of the weights per replica), "
                "least-outstanding routing, %s, %s.",
             b->replicas, b->chips, cap,
             b->policy == RL_POLICY_CHUNKED ? "chunked prefill" : "continuous batching");
    }
    item(d, "Precision: weights %s, KV cache %s, compute %s.", rl_dtype_name(b->p.weights),
         rl_dtype_name(b->p.kv), rl_dtype_name(b->p.compute));
    char prec[640]; /* size.h rl_size_precision_caution (issue 14 #3) */
    if (rl_size_precision_caution(in, b, prec, sizeof prec))
        item(d, "Caution on precision: %s.", prec);
    char short_pool[1024];
    if (rl_size_activation_caution(in, b, short_pool, sizeof short_pool))
        item(d, "Caution on memory: %s.", short_pool);
    if (x->res->priced)
        /* t56 #3: a profile without price_source read "(7.50 USD per chip-hour, )" */
        /* stop 48 #6: at the stated load's tokens (size.c price) */
        item(d, "Cost: %.2f USD/hour on demand (%.2f USD per chip-hour%s%s); %.3f USD per "
                "million output tokens at this load (%s).",
             b->cost_per_hour, in->hw[b->hw].price_per_chip_hour,
             in->hw[b->hw].price_source[0] ? ", " : "", in->hw[b->hw].price_source,
             b->usd_per_mtok,
             in->trace ? "the trace's steady-state output tokens/s"
                       : "its output tokens/s: the stated req/s x the mean output length");
    else
        item(d, "Cost: %lld chips (not every profile searched has a price, so chips are the cost).",
             b->chips_total);
    if (in->conservative)
        item(d, "Conservative (size --conservative, sized_against band_high): the verdicts "
                "(meets, sustains), the Predicted line, the load curve, the sensitivity and the "
                "cost / latency frontier's order below are at the band's high edge (each step at the slow edge of its fitted or "
                "table-timed cost), the figure each row was sized against; the tables' TTFT and "
                "TPOT p99 cells and the Band line give the central prediction (what a simulate "
                "run of the row predicts) with the band beside it, as the JSON keys do.");
    char tpot[96];
    if (b->no_tpot)
        tpot_ms(tpot, sizeof tpot, 0, 1, 1);
    else
        snprintf(tpot, sizeof tpot, "p50 %.1f ms / p99 %.1f ms", b->tpot_p50 * 1e3, b->tpot_p99 * 1e3);
    item(d, "Predicted%s at %.3g req/s: TTFT p50 %.0f ms / p99 %.0f ms; TPOT %s; end-to-end p50 "
            "%.2f s / p99 %.2f s; %.0f output tokens/s; %.1f%% of requests within %s; replicas "
            "run a step %.0f%% of the time, with %.1f sequences per decode step on average.",
         in->conservative ? " at the band's high edge" : "", in->w.qps, b->ttft_p50 * 1e3,
         b->ttft_p99 * 1e3, tpot, b->e2e_p50, b->e2e_p99,
         b->steady_out_tokens_per_s, 100 * b->slo_attainment,
         /* fixIK #3: 98.8% beside p99s within target read as a contradiction */
         b->no_tpot ? "the TTFT target (no TPOT to judge)"
                    : "both targets at once (slo_attainment; the targets are judged per metric "
                      "at p99, TTFT's and TPOT's each, not by this share, which can fall below "
                      "99% where the requests over one target are not those over the other)",
         100 * b->utilization,
         b->mean_decode_batch);
    if (b->banded) {
        char t1[64], t2[64], advice[1024];
        rl_size_conservative_advice(in, b, "sizes on the high edge", advice, sizeof advice);
        time_cell(t1, sizeof t1, rl_size_time(in->conservative, b, 1), 0, b, 1);
        if (b->no_tpot)
            tpot_ms(t2, sizeof t2, 0, 1, 1);
        else
            time_cell(t2, sizeof t2, rl_size_time(in->conservative, b, 3), 1, b, 3);
        item(d, "Band (%s): TTFT p99 %s ms, TPOT p99 %s%s: the same requests served again with "
                "every step at the band's low and at its high edge (the %s of the fitted costs' "
                "cross-validated residuals, or every table-timed kernel at its class's residual "
                "quantile and every unmeasured one at its band's: docs/model.md, Bands in "
                "simulate and size)%s; %s.%s%s",
             in->band_wide ? "p5-p95" : "p10-p90", t1, t2, b->no_tpot ? "" : " ms", in->band_wide ? "p5 and p95" : "p10 and p90",
             in->band_wide ? ", each side out to the farther of it and the p10 or p90 run" : "",
             in->conservative ? "this row is sized on the high edge (--conservative)" : advice,
             p99_clamped(in->conservative, b) ? " " : "", p99_clamped(in->conservative, b) ? CLAMP_NOTE : "");
        /* t56 #2: a band whose slow edge misses a target (deepseek-v3 on
         * b200, its experts timed from the GEMM table: TTFT p99 65.5 s at
         * the edge against 3 s) was only in the figures: say it and by how
         * much (the edge as the band cell shows it: never below the row) */
        char miss[320] = "";
        double hi[2];
        const int mask = in->conservative ? 0 : rl_size_band_edge_misses(in, b, hi);
        const double slo[2] = {in->slo_ttft, in->slo_tpot};
        for (int k = 0; k < 2; k++) {
            if (!(mask & (1 << k)))
                continue;
            size_t l = strlen(miss);
            snprintf(miss + l, sizeof miss - l, "%s%s p99 %.3g %s is %.3gx the %.3g %s target",
                     l ? "; " : "", k ? "TPOT" : "TTFT", k ? hi[k] * 1e3 : hi[k], k ? "ms" : "s",
                     hi[k] / slo[k], k ? slo[k] * 1e3 : slo[k], k ? "ms" : "s");
        }
        if (miss[0]) {
            rl_size_conservative_advice(in, b, "sizes against it", advice, sizeof advice);
            item(d, "Caution on the band: at the band's upper edge %s; %s.", miss, advice);
        }
    }
    /* max_qps is the most the row sustains within the targets (the
     * capacity search, to 2%, as simulate finds it: not raised to the
     * sized load its one run met on point p99s, h31audit finding 1), the
     * curve's points a coarser grid: worded so neither reads as
     * contradicting the other (tester34 F13: "stops meeting at 24" of a
     * row verified at 24, beside "within both targets up to 22.5") */
    double sized = rl_size_sized_qps(in);
    if (isfinite(b->max_qps))
        item(d, "Sized for %.3g req/s (the load + %.0f%% headroom)%s; it sustains up to %.3g req/s "
                "within the targets%s (max_sustainable_qps: simulate's capacity search, to 2%%, "
                "on one sample of the workload: the highest load at which the one-sided 95%% "
                "upper bound on the share of that sample's requests over a target is within "
                "1%%, not a confidence interval on the figure, which moves with the sample "
                "by several percent; capacity utilization %.0f%% at the load)%s.",
             sized, 100 * in->headroom,
             b->meets || b->verdict_by == RL_SIZE_VERDICT_CAPACITY
                 ? ", where one run met the targets at p99"
                 : "",
             b->max_qps, in->conservative ? " at the band's high edge (--conservative)" : "",
             b->max_qps > 0 ? 100 * b->reached_qps / b->max_qps : 100.0,
             b->verdict_by == RL_SIZE_VERDICT_CAPACITY
                 ? ": below the sized load, so the row does not meet the targets with the "
                   "headroom asked (verdict_by capacity: the search's bound decides over one "
                   "run's p99)"
                 : "");
    /* fixND #12: a thin margin, and a cheaper pick on weaker evidence than
     * a near-equal-cost row (size.h RL_SIZE_THIN_MARGIN, RL_SIZE_NEAR_COST) */
    /* fixNI #4: every pick recommend() is given (the cheapest, or each
     * hardware's in chips mode: its "On <hw>" section dropped it), and the
     * margin to two significant digits under 1% ("0.032%", not "0.0%") */
    if (rl_size_thin_margin(in, b)) {
        double pct = 100 * (b->max_qps / sized - 1);
        item(d, "Caution on the margin: it sustains %.*g req/s, only %.*f%% above the %.3g req/s "
                "it was sized for (under %.0f%%): a few percent more step time or load takes it "
                "past the knee (the load curve below).",
             pct < 1 ? 6 : 4, b->max_qps, pct < 1 ? (pct > 0 ? 1 - (int)floor(log10(pct)) : 1) : 1,
             pct, sized, 100 * (RL_SIZE_THIN_MARGIN - 1));
    }
    char ev[640]; /* size.h rl_size_evidence_caution (fixND #12; on stderr too: stop 48 #2) */
    if (b == &x->res->c[0] && rl_size_evidence_caution(in, x->res, ev, sizeof ev))
        item(d, "Caution on the evidence: %s.", ev);
    char p99only[1600]; /* size.h rl_size_p99_caution (tester51 F7) */
    if (rl_size_p99_caution(in, b, p99only, sizeof p99only)) {
        /* stop 48 #1a: "no load up to 1.25 x it misses them" is the capacity
         * search's, on its own samples; the curve below may miss under it */
        int open_band = isnan(b->max_qps) && b->max_qps_unresolved == RL_SERVE_UNRESOLVED_BAND;
        int cm = b == &x->res->c[0] && open_band
                     ? curve_miss_upto(x, RL_SERVE_CAPACITY_OPEN_BAND * sized)
                     : -1;
        char held[320] = "";
        if (cm >= 0)
            snprintf(held, sizeof held, "; that is on the capacity search's own samples: the "
                     "load curve below, one sample a point, misses at %.3g req/s, so near these "
                     "targets which load misses is the sample's noise, not the load's",
                     x->curve->qps[cm]);
        item(d, "Caution on the verdict: %s%s.", p99only, held);
    }
    char few[640]; /* size.h rl_size_sample_caution (stop 48 #1b) */
    if (b == &x->res->c[0] && rl_size_sample_caution(in, few, sizeof few))
        item(d, "Caution on the sample: %s.", few);
    const rl_size_curve *c = x->curve;
    if (c && b == &x->res->c[0]) {
        int ok = -1;
        for (int i = 0; i < c->n; i++)
            if (c->ttft_p99[i] <= in->slo_ttft && c->tpot_p99[i] <= in->slo_tpot)
                ok = i;
            else
                break;
        char t[96], tt[96] = "", between[160] = "";
        tpot_ms(t, sizeof t, ok + 1 < c->n ? c->tpot_p99[ok + 1] : 0, 1, b->no_tpot);
        if (ok + 1 < c->n) {
            ms_vs_target(tt, sizeof tt, c->ttft_p99[ok + 1], in->slo_ttft, 0);
            if (c->ttft_p99[ok + 1] > in->slo_ttft)
                snprintf(tt + strlen(tt), sizeof tt - strlen(tt), " ms, over its %.4g ms target",
                         in->slo_ttft * 1e3);
            else
                snprintf(tt + strlen(tt), sizeof tt - strlen(tt), " ms");
            if (!b->no_tpot && c->tpot_p99[ok + 1] > in->slo_tpot) {
                ms_vs_target(t, sizeof t, c->tpot_p99[ok + 1], in->slo_tpot, 1);
                snprintf(t + strlen(t), sizeof t - strlen(t), " ms, over its %.4g ms target",
                         in->slo_tpot * 1e3);
            } else if (!b->no_tpot)
                snprintf(t + strlen(t), sizeof t - strlen(t), " ms");
        }
        if (ok >= 0 && ok + 1 < c->n && isfinite(b->max_qps))
            snprintf(between, sizeof between,
                     b->max_qps >= c->qps[ok] && b->max_qps < c->qps[ok + 1]
                         ? "; the %.3g req/s sustained above lies between the two points"
                         : "; the capacity search above, on its own time-scaled sample, reads %.3g "
                           "req/s",
                     b->max_qps);
        if (ok >= 0 && ok + 1 < c->n)
            item(d, "Headroom: the load curve below (0.25x to 1.5x the load) is within both "
                    "targets at every point up to %.3g req/s and misses at the next, %.3g req/s "
                    "(TTFT p99 %s, TPOT p99 %s)%s. Size for your peak, not your mean.",
                 c->qps[ok], c->qps[ok + 1], tt, t, between);
        else if (ok + 1 == c->n)
            item(d, "Headroom: the load curve below (0.25x to 1.5x the load) is within both "
                    "targets at every point, up to its last, %.3g req/s%s.", c->qps[ok],
                 isfinite(b->max_qps) && c->qps[ok] > b->max_qps
                     ? " (each point one run judged on its own p99; the sustained figure above "
                       "also needs a 95% bound on the share of requests over a target to stay "
                       "within 1%, so it may read lower)"
                     : "");
    }
    end_list(d);
    if (d->html)
        fputs("</div>\n", d->f);
}

/* A profile of --hw no row of the search is on: the report lists it as
 * considered (and its mode, memory rule and price below), so it says that
 * no plan of it was sized and why (tester72 finding 3: --conservative had
 * left every plan of a fitted profile out as off its fit, said on stderr
 * alone): the plans --conservative left out (rl_size_result.left_out_hw),
 * else pruned analytically or not among the plans simulated (Method). */
static void hw_not_sized(doc *d, const rl_size_report_data *x, int hw)
{
    const rl_size_result *r = x->res;
    for (int k = 0; k < r->n; k++)
        if (r->c[k].hw == hw)
            return;
    const char *name = x->in->hw[hw].name;
    long long off = hw < r->left_out_n ? r->left_out_hw[hw][0] : 0,
              der = hw < r->left_out_n ? r->left_out_hw[hw][1] : 0;
    if (off + der > 0) {
        char n[160] = "";
        if (off)
            snprintf(n, sizeof n, "%lld off its fit", off);
        if (der)
            snprintf(n + strlen(n), sizeof n - strlen(n), "%s%lld at a dtype its kernel tables "
                     "do not measure", off ? " and " : "", der);
        para(d, "No plan on %s was sized: --conservative left out %lld of its plans (%s; first: "
                "%s), where the band has no slow edge to size on (docs/model.md), and no other "
                "plan of it was simulated. Fit the profile on measurements of the plans to size, "
                "or drop --conservative; its mode, memory rule and price below describe the "
                "profile, not a row.",
             name, off + der, n, r->left_out_why[hw]);
    } else
        para(d, "No plan on %s was sized: each of its plans was pruned analytically or was "
                "costlier than the plans simulated (Method); its mode, memory rule and price "
                "below describe the profile, not a row.",
             name);
}

/* The HTML head, the title and what was asked. */
static void report_head(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_model *m = in->m;
    char hwlist[512] = "";
    for (int i = 0; i < in->nhw; i++)
        snprintf(hwlist + strlen(hwlist), sizeof hwlist - strlen(hwlist), "%s%s", i ? ", " : "",
                 in->hw[i].name);
    time_t now = time(NULL);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    if (d->html) {
        /* the name is the spec's: escaped here as in the body (tester4 #3) */
        fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sizing: ",
              d->f);
        esc(d, m->name);
        fputs("</title><style>body{font-family:sans-serif;max-width:980px;"
              "margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}"
              "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td.t{text-align:left}"
              "th{background:#f3f3f3}.rec{background:#eef7ee;border:1px solid #9c9;padding:1em}"
              "figure{margin:1em 0}figcaption{font-size:90%;color:#555}</style></head><body>\n",
              d->f);
    }
    heading(d, 1, "Deployment sizing: %s at %.3g req/s", m->name, in->w.qps);
    para(d, "Generated %s by roofline size. Hardware considered: %s. Targets: TTFT p99 <= %.4g ms, "
            "TPOT p99 <= %.4g ms.",
         stamp, hwlist, in->slo_ttft * 1e3, in->slo_tpot * 1e3);
    /* a smoke-test profile, said where the report is read, not on stderr
     * alone (tester63 #9; the README: every command using one says so) */
    for (int i = 0; i < in->nhw; i++)
        if (in->hw[i].smoke_test)
            para(d, "Smoke test: " RL_HW_SMOKE_NOTE ".", in->hw[i].name);
    for (int i = 0; i < in->nhw; i++)
        hw_not_sized(d, x, i);
}

/* Nothing meets the targets: why, and what to change. */
static void recommend_none(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    char why[1024];
    rl_size_why_none(in, r, why, sizeof why);
    para(d, "No configuration in the search space meets both targets: %s. Relax the targets, "
            "allow larger replicas (--max-chips) or add hardware.", why);
}

/* The caution before a recommendation when the searched hardware rests on
 * different evidence (evidence_of; review28 L2: it compared "some measured"
 * against "none", so h100-sxm beside the what-if h100-pcie had none and
 * h100-pcie beside tpu-v5e, both estimated, read "two modes"): "two modes"
 * only when calibrated meets estimated, each kind of other evidence named. */
static void caution_evidence(doc *d, const rl_size_input *in, const rl_size_candidate *c0)
{
    int has[EV_KINDS] = {0};
    for (int h = 0; h < in->nhw; h++)
        has[evidence_of(in, h, NULL)] = 1;
    int kinds = has[EV_DATASHEET] + has[EV_OTHER] + has[EV_MEASURED] + has[EV_FITTED];
    if (kinds < 2)
        return;
    /* fitted beside calibrated: both measured, on different terms (tester63
     * #3: a fitted profile read as a what-if of another chip's kernels) */
    int est = has[EV_DATASHEET] || has[EV_OTHER];
    char own[320], text[2048];
    snprintf(text, sizeof text, "Caution: the hardware is compared %s. %s is modelled %s; %s%s%s%s%s",
         kinds > 2 ? "in several modes"
         : has[EV_MEASURED] || has[EV_FITTED] ? "in two modes"
                                              : "on different evidence",
         in->hw[c0->hw].name,
         evidence_label(evidence_of(in, c0->hw, rl_size_mode(in, c0)), own, sizeof own),
         has[EV_DATASHEET] ? "profiles with nothing measured (no kernel or efficiency tables) are estimated "
                  "from their datasheet figures at efficiency 1.0 (the ideal roofline's "
                  "numbers), optimistic against measured ones, so their rank is optimistic"
                : "",
         has[EV_DATASHEET] && has[EV_OTHER] ? "; " : "",
         has[EV_OTHER] ? "what-if profiles time another chip's measured kernels at their own figures, "
                  "with an error no table measures and no band. "
                : has[EV_DATASHEET] ? ". " : "",
         has[EV_FITTED] && has[EV_MEASURED]
             ? "fitted profiles time a step end to end (the engine's host costs included, fitted "
               "to benchmark rows), calibrated ones by kernel and collective time, a lower bound "
               "on an engine's step (host_cost_note), so a calibrated plan ranks optimistically "
               "beside a fitted one. "
             : "",
         est ? "Calibrate each (roofline calibrate) before buying." : "");
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == ' ')
        text[--n] = '\0';
    para(d, "%s", text);
}

/* Chips mode over several hardware (not every profile has a price, more
 * than one profile): chips of different hardware are not compared, so the
 * report recommends, ranks and draws the frontier within each hardware
 * (tester80 #9: it said so, then ranked the two hardware's chips in one
 * Alternatives table and one frontier, and put every hardware's cautions
 * after the last one's section).  The JSON's and the table's rows keep the
 * search's order, fewest chips first (cost_unit chips says what it is). */
static int each_hw(const rl_size_report_data *x)
{
    return !x->res->priced && x->in->nhw > 1;
}

/* The rows of hardware h in their order as a result of their own, *sub
 * (its c malloc'd: free(sub->c); the rest shared with x->res, not to be
 * given to rl_size_result_free), and x over it as *xs, the load curve kept
 * only where h is the studied row's (x->res->c[0], rl_size_study), so a
 * section's row numbers, frontier and "Caution on the evidence" are its
 * hardware's.  Returns the rows' count, -1 when out of memory. */
static int hw_view(const rl_size_report_data *x, int h, rl_size_result *sub,
                   rl_size_report_data *xs)
{
    const rl_size_result *r = x->res;
    *sub = *r;
    sub->c = malloc((size_t)(r->n > 0 ? r->n : 1) * sizeof *sub->c);
    if (!sub->c)
        return -1;
    sub->n = sub->nmeet = 0;
    for (int i = 0; i < r->n; i++)
        if (r->c[i].hw == h) {
            sub->nmeet += r->c[i].meets;
            sub->c[sub->n++] = r->c[i];
        }
    *xs = *x;
    xs->res = sub;
    xs->curve = r->n > 0 && r->c[0].hw == h ? x->curve : NULL;
    return sub->n;
}

/* The report's views of the rows: in chips mode over several hardware
 * (each_hw) one hw_view a hardware, xs[h] over sub[h], built once for the
 * recommendation and the tables (issue 14 #5: each section built its own);
 * else one, x itself (sub unused).  nv 0 when out of memory: the sections
 * that need them are left out, as they were. */
typedef struct {
    int each, nv;
    rl_size_result *sub;
    rl_size_report_data *xs;
} hw_views;

static void hw_views_free(hw_views *v)
{
    for (int h = 0; v->each && v->sub && h < v->nv; h++)
        free(v->sub[h].c);
    free(v->sub);
    free(v->xs);
    *v = (hw_views){0};
}

static void hw_views_build(const rl_size_report_data *x, hw_views *v)
{
    v->each = each_hw(x);
    v->nv = v->each ? x->in->nhw : 1;
    v->sub = calloc((size_t)v->nv, sizeof *v->sub);
    v->xs = calloc((size_t)v->nv, sizeof *v->xs);
    if (!v->sub || !v->xs) {
        hw_views_free(v);
        return;
    }
    if (!v->each)
        v->xs[0] = *x;
    for (int h = 0; v->each && h < v->nv; h++)
        if (hw_view(x, h, &v->sub[h], &v->xs[h]) < 0) {
            v->nv = h; /* those built are freed */
            hw_views_free(v);
            return;
        }
}

/* One recommendation (prices compare the hardware, or one hardware): the
 * cheapest, and the cheapest on each other hardware. */
static void recommend_cheapest(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    int ev0 = evidence_of(in, r->c[0].hw, rl_size_mode(in, &r->c[0]));
    caution_evidence(d, in, &r->c[0]);
    recommend(d, x, &r->c[0]);
    for (int h = 0; h < in->nhw; h++)
        for (int i = 1; i < r->n && r->c[i].meets && h != r->c[0].hw; i++)
            if (r->c[i].hw == h) {
                char label[128], note[768] = ".", there[320], here[320];
                rl_size_label(in, &r->c[i], label, sizeof label);
                int ev = evidence_of(in, h, rl_size_mode(in, &r->c[i]));
                if (ev != ev0)
                    snprintf(note, sizeof note, "; note: %s there, %s for the recommendation.",
                             evidence_label(ev, there, sizeof there),
                             evidence_label(ev0, here, sizeof here));
                item(d, "Cheapest on %s: %s, %lld chips, %.2f USD/hour (%.1fx the recommendation)%s",
                     in->hw[h].name, label, r->c[i].chips_total, r->c[i].cost_per_hour,
                     r->c[i].cost_per_hour / r->c[0].cost_per_hour, note);
                break;
            }
    end_list(d);
}

static void recommend_cautions(doc *d, const rl_size_report_data *x, int hw);

/* No price for every profile: the cheapest configuration of each hardware
 * (the views of v, hw_views). */
static void recommend_each_hw(doc *d, const rl_size_report_data *x, const hw_views *v)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    char unpriced[512] = "";
    for (int h = 0; h < in->nhw; h++)
        if (!(in->hw[h].price_per_chip_hour > 0))
            snprintf(unpriced + strlen(unpriced), sizeof unpriced - strlen(unpriced), "%s%s",
                     unpriced[0] ? ", " : "", in->hw[h].name);
    /* the sections below follow r->c[0] (report_memory, rl_size_study's row): the
     * fewest chips, not necessarily the first block, which is in hardware order */
    char first[128];
    rl_size_label(in, &r->c[0], first, sizeof first);
    para(d, "No price for %s (price_per_chip_hour absent or 0), so cost is counted in chips, "
            "and chips of different hardware cannot be compared: the cheapest configuration "
            "of each is given, with its cautions, and the alternatives and the frontier below "
            "are ranked within each hardware. Choose with your prices. The load curve, memory "
            "and sensitivity sections below are for the fewest chips: %lld x %s, %s.",
         unpriced, r->c[0].chips_total, in->hw[r->c[0].hw].name, first);
    for (int h = 0; h < v->nv; h++) {
        const rl_size_result *sub = v->xs[h].res;
        if (sub->n > 0 && sub->nmeet > 0) {
            heading(d, 3, "On %s", in->hw[h].name);
            recommend(d, &v->xs[h], &sub->c[0]);
            recommend_cautions(d, &v->xs[h], h);
        }
    }
}

/* The JSON's e2e_gap_note beside the recommendation (tester77 #1: the report
 * never said that measured end-to-end runs ran x1.40-x3.42 the tables), for
 * the recommended row c at its own TP (the JSON's is the first row's);
 * calibrated searches only, as the key. */
static void report_e2e_gap(doc *d, const rl_size_report_data *x, const rl_size_candidate *c)
{
    const rl_size_input *in = x->in;
    if (!in->calibrated)
        return;
    char note[1600], label[128];
    long long tp = rl_serve_replica_plan(c->chips, c->ep, c->layout).tp;
    const rl_hw *hw = in->band_hw ? &in->band_hw[c->hw] : &in->hw[c->hw];
    if (rl_result_e2e_gap_serving_note(hw, tp, note, sizeof note)) {
        rl_size_label(in, c, label, sizeof label);
        para(d, "Caution: end-to-end gap of %s (tp%lld; e2e_gap_note): %s.", label, tp, note);
        /* tester85 #5: --conservative read as covering it */
        if (in->conservative && rl_result_conservative_gap_note(hw, tp, note, sizeof note))
            para(d, "Caution: %s.", note);
    }
}

/* The cautions on the recommendation of x->res->c[0] (one hardware's, hw,
 * in chips mode: each_hw; else hw -1), after it, each beside the pick it
 * qualifies: fixJH's host_cost_note (the report left it out: a plan on
 * kernel + collective times read as an engine's), for the profile
 * recommended only (fixKJ B: a tpu-v5e recommendation, engine none, was
 * said to lack trtllm's host cost; a profile with nothing measured has its
 * own caution, the mode's, above); fixNI #6's prefill_dispatch_note
 * (README: reported); the end-to-end gap. */
static void recommend_cautions(doc *d, const rl_size_report_data *x, int hw)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    char note[1024];
    int *recommended = calloc((size_t)in->nhw, sizeof *recommended);
    if (recommended)
        recommended[hw >= 0 ? hw : r->c[0].hw] = 1;
    if (recommended && rl_result_size_host_cost_note_of(in, recommended, note, sizeof note))
        para(d, "Caution: the latencies behind this recommendation are a lower bound: %s.", note);
    free(recommended);
    if (rl_result_size_dispatch_note(in, r, note, sizeof note))
        para(d, "Note: %s.", note);
    report_e2e_gap(d, x, &r->c[0]);
    /* fixSA #2: a recommended plan whose decode step is below one kernel
     * launch, as its row's step_floor_note (the first row of hw, or the
     * first row) */
    for (int i = 0; i < r->n; i++) {
        const rl_size_candidate *c = &r->c[i];
        if (hw >= 0 && c->hw != hw)
            continue;
        if (!c->no_tpot && rl_result_step_floor_note("tpot_p50_s", c->tpot_p50, note, sizeof note))
            para(d, "Caution: %s (step_floor_note).", note);
        /* tester89 F4b: a dtype its engine does not run on the chip, as the row's notes */
        static const char *const keys[] = {"kv_engine_note", "precision_engine_note"};
        for (int k = 0; k < 2; k++)
            if (rl_result_engine_dtype_note(&in->hw[c->hw], c->p,
                                            in->m->abstract || !in->calibrated, k, note,
                                            sizeof note))
                para(d, "Caution: %s (%s).", note, keys[k]);
        if (in->calibrated && rl_result_mla_engine_note(in->m, &in->hw[c->hw], c->p, note,
                                                        sizeof note)) /* tester F8 */
            para(d, "Caution: %s (mla_engine_note).", note);
        break;
    }
}

/* The recommendation section (v: the report's views, hw_views). */
static void report_recommendation(doc *d, const rl_size_report_data *x, const hw_views *v)
{
    const rl_size_result *r = x->res;
    heading(d, 2, "Recommendation");
    if (r->nmeet == 0)
        recommend_none(d, x);
    else if (!v->each) {
        recommend_cheapest(d, x);
        recommend_cautions(d, x, -1);
    } else
        recommend_each_hw(d, x, v);
}

/* The model, the traffic and the targets. */
static void report_workload(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_model *m = in->m;
    heading(d, 2, "Workload and targets");
    char pc[RL_COUNT_STR], pct[RL_PERCENT_STR], kv[32];
    double kb = rl_arch_kv_bytes_per_token(m, RL_BF16) / 1e3;
    snprintf(kv, sizeof kv, kb < 100 ? "%.3g" : "%.0f", kb); /* a tiny model's too (tester77 #5) */
    item(d, "Model: %s (%s), %s parameters, %s KB of KV cache per token in bf16.", m->name,
         m->source, rl_count_str(rl_arch_params(m).total, pc), kv);
    item(d, "Traffic: %s.", x->workload_desc);
    if (in->truncated_frac > 0)
        item(d, "Caution: %s of the requests drawn exceed %s's max_context (%lld tokens), "
                "which a server refuses, and were drawn again, so this sizing describes the "
                "traffic's lengths restricted to what the model serves; if the model serves "
                "longer contexts, rerun with --set model.max_context=N.",
             rl_percent_str(in->truncated_frac, pct), m->name, m->max_context);
    /* stop 48 #1a: not "met ... at 20% above it" where the curve misses below that */
    double sized = rl_size_sized_qps(in);
    int cm = curve_miss_upto(x, sized);
    char curve[400] = "";
    if (cm >= 0)
        snprintf(curve, sizeof curve, "; the recommended row's runs met them at %.3g and %.3g "
                 "req/s, but its load curve below misses at %.3g req/s, between or below them: "
                 "the curve is not monotone there, each point one sample whose p99 is set by "
                 "its few worst requests, so the margin is within sampling noise (a larger "
                 "--requests narrows it)",
                 in->w.qps, sized, x->curve->qps[cm]);
    item(d, "Targets: TTFT p99 <= %.4g ms, TPOT p99 <= %.4g ms (p99 over the simulated requests), "
            "%s at the load and at %.0f%% above it (--headroom %.2f)%s.",
         in->slo_ttft * 1e3, in->slo_tpot * 1e3, cm >= 0 ? "sized to meet them" : "met",
         100 * in->headroom, in->headroom, curve);
}

/* The cheapest rows, and any frontier row (fr[nf]) ranked beyond them:
 * the table of the Alternatives. */
static void alternatives_table(doc *d, const rl_size_report_data *x, const int *fr, int nf)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    candidate_header(d, in, r);
    int clamped = 0;
    for (int i = 0, k = 0; i < r->n; i++) {
        while (k < nf && fr[k] < i)
            k++;
        if (i < 12 || (k < nf && fr[k] == i)) {
            candidate_row(d, x, i + 1, &r->c[i]);
            clamped |= p99_clamped(in->conservative, &r->c[i]);
        }
    }
    table_end(d);
    if (clamped)
        para(d, "%s", CLAMP_NOTE);
}

/* The cost / TPOT frontier (fr[nf]) as a table. */
static void frontier_table(doc *d, const rl_size_report_data *x, const int *fr, int nf)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    candidate_header(d, in, r);
    int clamped = 0;
    for (int i = 0; i < nf; i++) {
        candidate_row(d, x, fr[i] + 1, &r->c[fr[i]]);
        clamped |= p99_clamped(in->conservative, &r->c[fr[i]]);
    }
    table_end(d);
    if (clamped)
        para(d, "%s", CLAMP_NOTE);
}

static void frontier_chart(doc *d, const rl_size_report_data *x, const int *fr, int nf);

/* The Alternatives, the cost / latency frontier and its chart: over every
 * row, or in chips mode over several hardware (each_hw) one table of each
 * per hardware, its rows numbered and its frontier taken within it (the
 * views of hv, hw_views). */
static void report_tables(doc *d, const rl_size_report_data *x, const hw_views *hv)
{
    const rl_size_input *in = x->in;
    const int each = hv->each, nv = hv->nv;
    const rl_size_report_data *xs = hv->xs;
    int **fr = nv > 0 ? calloc((size_t)nv, sizeof *fr) : NULL;
    int *nf = nv > 0 ? calloc((size_t)nv, sizeof *nf) : NULL;
    if (!fr || !nf)
        goto done;
    for (int v = 0; v < nv; v++) {
        fr[v] = malloc((size_t)(xs[v].res->n + 1) * sizeof *fr[v]);
        nf[v] = fr[v] ? rl_size_frontier(xs[v].res, fr[v]) : 0;
    }
    heading(d, 2, "Alternatives");
    para(d, "The cheapest configurations per hardware, precision, replica size, policy and batch "
            "cap, each with the fewest replicas that meet the targets (cheapest first%s; rows "
            "that miss the targets even at 4x the estimated replicas come last).  Output tok/s "
            "is the steady state (no warm-up, no drain tail); busy is the time replicas run a "
            "step of any size, mean batch the sequences per decode step; sustains is the "
            "largest load the row serves within the targets with its replicas (max_sustainable_qps: "
            "simulate's capacity search, to 2%%, \">=\" where it is a lower bound), meets SLO "
            "whether it met them at the load and at the sized load and sustains at least the "
            "sized load (\"no: sustains under\" where its runs met them at p99 but its "
            "capacity, the search's figure under its 95%% bound, is short of it: JSON verdict_by "
            "capacity).  The first 12 rows%s, and any row of the frontier below ranked beyond "
            "them.",
         each ? ", ranked within each hardware: chips of different hardware are not compared" : "",
         each ? " of each hardware" : "");
    for (int v = 0; v < nv; v++) {
        if (each && xs[v].res->n == 0)
            continue;
        if (each)
            heading(d, 3, "Alternatives on %s", in->hw[v].name);
        alternatives_table(d, &xs[v], fr[v], nf[v]);
    }
    heading(d, 2, "Cost / latency frontier");
    para(d, "Configurations that meet the targets and that no other one%s dominates (costs no "
            "more with a lower TPOT p99, or less with the same; a difference under one part in "
            "a million does not count, as in pareto): each costs more than the row above it and "
            "streams tokens faster%s",
         each ? " of the same hardware" : "",
         in->conservative
             ? " at the band's high edge: under --conservative the frontier is taken on each "
               "row's TPOT p99 at the band's high edge (the figure it was sized against, JSON "
               "tpot_p99_s_high), while the TPOT cells below give the central prediction with "
               "its band, so a row's central TPOT need not be below the one above it."
             : ".");
    for (int v = 0; v < nv; v++) {
        if (each && nf[v] == 0)
            continue;
        if (each)
            heading(d, 3, "Frontier on %s", in->hw[v].name);
        frontier_table(d, &xs[v], fr[v], nf[v]);
        frontier_chart(d, &xs[v], fr[v], nf[v]);
    }
done:
    for (int v = 0; fr && v < nv; v++)
        free(fr[v]);
    free(fr);
    free(nf);
}

/* Cost against TPOT p99 of every meeting row, the frontier (fr[nf]) joined (HTML). */
static void frontier_chart(doc *d, const rl_size_report_data *x, const int *fr, int nf)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    if (!d->html || r->n == 0 || report_no_tpot(x))
        return;
    double *cx = malloc((size_t)r->n * 2 * sizeof *cx), *fx = malloc((size_t)(nf + 1) * 2 * sizeof *fx);
    if (cx && fx) {
        double *cy = cx + r->n, *fy = fx + nf + 1;
        /* stop 48 #2: each hardware's meeting rows a series (a colour and
         * a key of their own, "meets: h100-sxm"), not one colour for all */
        enum { MAX_SERIES = 9 };
        rl_svg_series s[MAX_SERIES];
        char names[MAX_SERIES][80];
        int ns = 0, nm = 0;
        for (int h = 0; h < in->nhw && ns < MAX_SERIES - 1; h++) {
            int first = nm;
            for (int i = 0; i < r->n; i++)
                if (r->c[i].meets && r->c[i].hw == h) {
                    cx[nm] = r->c[i].cost_per_hour;
                    cy[nm++] = r->c[i].tpot_p99 * 1e3;
                }
            if (nm == first)
                continue;
            snprintf(names[ns], sizeof names[ns], "meets: %s", in->hw[h].name);
            s[ns] = (rl_svg_series){names[ns], cx + first, cy + first, nm - first, 1};
            ns++;
        }
        for (int i = 0; i < nf; i++) {
            fx[i] = r->c[fr[i]].cost_per_hour;
            fy[i] = r->c[fr[i]].tpot_p99 * 1e3;
        }
        s[ns++] = (rl_svg_series){"frontier", fx, fy, nf, 0};
        char xl[64];
        snprintf(xl, sizeof xl, "cost (%s)", cost_unit(r));
        figure(d, rl_svg_chart("Cost vs TPOT p99", xl, "TPOT p99 (ms)", s, ns, in->slo_tpot * 1e3,
                               "TPOT target"),
               in->conservative
                   ? "Every simulated configuration that meets both targets, at the band's high "
                     "edge (--conservative: the TPOT each was sized against); the line joins the "
                     "frontier."
                   : "Every simulated configuration that meets both targets; the line joins the "
                     "frontier.");
    }
    free(cx);
    free(fx);
}

/* Load against TTFT and TPOT p99 of the recommendation (HTML). */
static void curve_charts(doc *d, const rl_size_input *in, const rl_size_curve *c, int no_tpot)
{
    double ttft[RL_SIZE_CURVE_POINTS], tpot[RL_SIZE_CURVE_POINTS];
    for (int i = 0; i < c->n; i++) {
        ttft[i] = c->ttft_p99[i] * 1e3;
        tpot[i] = c->tpot_p99[i] * 1e3;
    }
    rl_svg_series s1 = {"TTFT p99", c->qps, ttft, c->n, 0};
    figure(d, rl_svg_chart("Load vs TTFT p99", "QPS (req/s)", "TTFT p99 (ms)", &s1, 1,
                           in->slo_ttft * 1e3, "TTFT target"),
           "TTFT p99 of the recommended deployment against offered load.");
    if (no_tpot) /* nothing measured to draw (NO_TPOT) */
        return;
    rl_svg_series s2 = {"TPOT p99", c->qps, tpot, c->n, 0};
    figure(d, rl_svg_chart("Load vs TPOT p99", "QPS (req/s)", "TPOT p99 (ms)", &s2, 1,
                           in->slo_tpot * 1e3, "TPOT target"),
           "TPOT p99 of the recommended deployment against offered load.");
}

/* What the runs at loads other than the stated one drew (fixND #5: the
 * Traffic line said one count while the load curve's and sensitivity's
 * points ran 300-900): a run at s x the load draws at least
 * RL_SIZE_MIN_WINDOW_S of arrivals (rl_size_requests), so its count moves
 * with s; into buf, "" when every run drew the same (a trace, or --requests
 * above every window). */
static void requests_by_load(const rl_size_input *in, char *buf, size_t len)
{
    double top = 1 + in->headroom > 1.5 ? 1 + in->headroom : 1.5;
    long long lo = rl_size_requests(in, 0.25), at = rl_size_requests(in, 1),
              sized = rl_size_requests(in, 1 + in->headroom), hi = rl_size_requests(in, top);
    buf[0] = '\0';
    if (lo != at || hi != at)
        snprintf(buf, len, "a run at another load draws at least %.0f s of its arrivals (or "
                 "--requests, whichever is more), so the load curve's and sensitivity's points "
                 "ran %lld requests at 0.25x the load to %lld at %gx, the run at the sized load "
                 "%lld", RL_SIZE_MIN_WINDOW_S, lo, hi, top, sized);
}

/* The recommendation as the load varies. */
static void report_load_curve(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    const rl_size_curve *c = x->curve;
    if (!c || r->nmeet == 0)
        return;
    char lab[128];
    rl_size_label(in, &r->c[0], lab, sizeof lab);
    heading(d, 2, "Load vs latency: %s", lab);
    char ran[320];
    requests_by_load(in, ran, sizeof ran);
    para(d, "The recommended deployment, unchanged, as the load varies from 0.25x to 1.5x the "
            "stated QPS%s%s.", ran[0] ? "; " : "", ran);
    char h[6][96] = {"QPS (req/s)", "TTFT p99 (ms)", "TPOT p99 (ms)", "E2E p50 (s)", "busy",
                     "mean batch"};
    row(d, 1, 6, h);
    for (int i = 0; i < c->n; i++) {
        char v[6][96];
        snprintf(v[0], 96, "%.3g", c->qps[i]);
        ms_vs_target(v[1], 96, c->ttft_p99[i], in->slo_ttft, 0);
        tpot_ms(v[2], 96, c->tpot_p99[i], 1, report_no_tpot(x));
        if (!report_no_tpot(x))
            ms_vs_target(v[2], 96, c->tpot_p99[i], in->slo_tpot, 1);
        snprintf(v[3], 96, "%.2f", c->e2e_p50[i]);
        snprintf(v[4], 96, "%.0f%%", 100 * c->utilization[i]);
        snprintf(v[5], 96, "%.1f", c->mean_decode_batch[i]);
        row(d, 0, 6, v);
    }
    table_end(d);
    if (d->html)
        curve_charts(d, in, c, report_no_tpot(x));
}

/* The memory rule the KV pool on h is sized by (rl_serve_kv_capacity): the
 * selected engine's (memory.h rl_memory_usable), else --hbm-reserve. */
static void memory_rule(doc *d, const rl_size_input *in, const rl_hw *h)
{
    rl_memory mem = rl_memory_use(in->m, h, 1, 0, 1, RL_BF16, RL_BF16);
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!mem.engine_memory)
        item(d, "Memory on %s: %.0f%% of HBM reserved for activations and workspace "
                "(--hbm-reserve: no engine memory rule applies).",
             h->name, 100 * in->hbm_reserve);
    else {
        /* the workspace as one chip holds it (memory.h rl_memory_workspace;
         * a replica of g chips splits its per-head and MLP part g ways) */
        char ws[192] = " and workspace";
        if (e->mem.workspace_tokens > 0 && !in->m->abstract)
            snprintf(ws, sizeof ws,
                     ", an activation workspace (%s's at %.0f tokens: %.2f GB on one chip, "
                     "its per-head and MLP part split over more)",
                     in->m->name, e->mem.workspace_tokens,
                     rl_memory_workspace(in->m, &e->mem, 1, 0) / 1e9);
        double fixed = e->mem.context_bytes + (e->mem.workspace_tokens > 0 && !in->m->abstract
                                                   ? 0 : e->mem.workspace_bytes);
        item(d, "Memory on %s: the %s engine's rule (docs/model.md, serving engines): %s %.2f of "
                "%s %.2f GB of CUDA context%s and, on a multi-chip replica, %.2f GB of "
                "collective buffers per chip; the rest is the reserve (--hbm-reserve does not "
                "apply).",
             h->name, e->name, e->mem.of_free ? "the KV pool is" : "weights and KV pool take",
             e->mem.fraction, e->mem.of_free ? "the HBM free after the weights," : "HBM less",
             fixed / 1e9, ws, e->mem.comm_bytes / 1e9);
    }
}

/* tester34 F4 (sizereport.h) */
int rl_size_activation_caution(const rl_size_input *in, const rl_size_candidate *c, char *buf,
                               size_t n)
{
    const rl_hw *h = &in->hw[c->hw];
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    rl_engine_memory vllm;
    if (!e || !e->mem.present || e->mem.workspace_bytes > 0 || e->mem.context_bytes > 0 ||
        rl_engine_memory_default("vllm", NULL, 0, &vllm) != 0)
        return 0;
    double left = h->hbm_bytes - c->weight_bytes_per_chip - c->kv_bytes_per_chip;
    double floor_bytes = vllm.context_bytes + RL_VLLM_ACT_PEAK_BYTES; /* as measured */
    if (!(left < floor_bytes))
        return 0;
    double P, G;
    rl_size_mean_lengths(in, &P, &G);
    snprintf(buf, n,
             "its KV pool on %s (%.2f GB per chip, %.0f tokens per replica: %.0f sequences of "
             "the mean request, B<=%d) rests on the %s engine's memory rule, which charges no "
             "activation workspace or CUDA context (no public figure); TensorRT-LLM allocates "
             "the activations (sized at max_num_tokens) before the KV cache takes %.2f of the "
             "memory then free (docs/source/reference/memory.md), and the %.2f GB per chip the "
             "rule leaves is below the %.2f GB vLLM's own profile reserves for Llama-3-8B's "
             "context and activations, so the real pool is smaller, or absent: check the row "
             "with --engine vllm",
             h->name, c->kv_bytes_per_chip / 1e9, rl_size_kv_tokens(c),
             floor(rl_size_kv_tokens(c) / (P + G)), c->max_seqs, e->name, e->mem.fraction,
             left / 1e9, floor_bytes / 1e9);
    return 1;
}

/* HBM per chip of the recommendation. */
static void report_memory(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    if (r->nmeet == 0)
        return;
    const rl_size_candidate *b = &r->c[0];
    const rl_hw *h = &in->hw[b->hw];
    char lab[128];
    rl_size_label(in, b, lab, sizeof lab);
    heading(d, 2, "Memory per chip: %s", lab);
    char hd[2][96] = {"item", "GB per chip (1 GB = 1e9 bytes)"};
    row(d, 1, 2, hd);
    char v[2][96];
    /* the reserve is what the memory rule the KV pool was sized by leaves
     * (rl_serve_kv_capacity; Assumptions names the rule), so the rows add up */
    double items[4] = {h->hbm_bytes, b->weight_bytes_per_chip, b->kv_bytes_per_chip,
                       h->hbm_bytes - b->weight_bytes_per_chip - b->kv_bytes_per_chip};
    /* the chip's capacity in the vendor's unit (hw_profiles give nominal GiB:
     * "80GB" H100 = 80 GiB, review28 M2); the column stays decimal so it adds up */
    char cap[64];
    snprintf(cap, sizeof cap, "HBM capacity (%.4g GiB)", h->hbm_bytes / RL_GIB);
    const char *names[4] = {cap, "weights (sharded over the replica)",
                            "KV cache pool",
                            "reserve (what the memory rule leaves: activations, workspace)"};
    for (int i = 0; i < 4; i++) {
        snprintf(v[0], 96, "%s", names[i]);
        snprintf(v[1], 96, "%.1f", items[i] / 1e9);
        row(d, 0, 2, v);
    }
    table_end(d);
    double P, G;
    rl_size_mean_lengths(in, &P, &G);
    /* the sequences that fit: floored (tester22 F12: 486827 / 2300 = 211.66
     * printed 212, one more than the pool holds) */
    para(d, "The KV pool holds %.0f tokens per replica: %.0f sequences of the mean prompt + "
            "output length (%.0f + %.0f tokens).",
         rl_size_kv_tokens(b), floor(rl_size_kv_tokens(b) / (P + G)), P, G);
    char why[1024];
    if (rl_size_activation_caution(in, b, why, sizeof why))
        para(d, "Caution: %s.", why);
    long long stage = b->chips / (b->pp > 1 ? b->pp : 1); /* chips of one pipeline stage */
    long long ep = b->ep > 1 ? b->ep : 1, tp = stage / ep;
    double copies = rl_serve_kv_copies(in->m, stage, ep, b->layout);
    if (b->pp > 1) {
        /* the stages' own layers (shard.h rl_shard_stage_layers, the
         * engine's split; tester34 F12: "each 1/2 of the layers" for 31 + 30) */
        char split[256] = "";
        long long L = in->m->layers, big = 0;
        int how = rl_shard_split_of(&in->hw[b->hw]);
        for (long long s = 0; s < b->pp && !in->m->abstract; s++) {
            long long k = rl_shard_stage_layers(L, b->pp, s, how);
            size_t n = strlen(split);
            big = k > big ? k : big;
            if (n + 24 < sizeof split)
                snprintf(split + n, sizeof split - n, "%s%lld", s ? " + " : "", k);
        }
        if (in->m->abstract || L % b->pp == 0)
            para(d, "Pipeline: %lld stages of %lld chips, each holding 1/%lld of the layers "
                    "(weights and every token's KV for them); the replica runs %lld batch "
                    "streams at once, each step one pass through every stage plus %lld "
                    "stage-to-stage activation transfer%s (vLLM's virtual engines; docs/model.md).",
                 b->pp, stage, b->pp, b->pp, b->pp - 1, b->pp > 2 ? "s" : "");
        else
            para(d, "Pipeline: %lld stages of %lld chips holding %s of the %lld layers (%s "
                    "split; weights and every token's KV for them, the first stage the embedding "
                    "and the last the LM head too); the slowest stage sets the pace, the "
                    "largest holding %lld/%lld of the layers, the last the LM head; the memory per chip above is the heaviest stage's weights and the "
                    "fullest stage's KV, the pool what the stage with the least room for its KV "
                    "holds; the replica runs %lld batch "
                    "streams at once, each step one pass through every stage plus %lld "
                    "stage-to-stage activation transfer%s (vLLM's virtual engines; docs/model.md).",
                 b->pp, stage, split, L, how == RL_SPLIT_TRTLLM ? "TensorRT-LLM's" : "vLLM's",
                 big, L, b->pp, b->pp - 1, b->pp > 2 ? "s" : "");
    }
    if (b->layout == RL_ATTN_LAYOUT_DP)
        para(d, "Layout attn-dp (attention data parallel): each chip runs attention for its own "
                "sequences and holds their whole KV cache, one copy per token; attention, dense "
                "layers and embeddings are on every chip, the routed experts split over them.");
    else
        para(d, "Layout tp (tensor parallel over %lld chips%s): %s", tp,
             ep > 1 ? ", in each of the expert-parallel groups that split the routed experts "
                      "and the batch" : "",
             copies > 1 ? "fewer KV heads than chips, so each token's KV is held on several "
                          "chips (MLA: its one latent on every chip, as vLLM and SGLang do under "
                          "TP); the pool above counts each token once."
                        : "the KV heads split over the chips, one copy per token.");
}

/* The recommendation under changed traffic, and resized to meet it. */
static void report_sensitivity(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    const rl_size_result *r = x->res;
    if (!x->sens || r->nmeet == 0)
        return;
    char lab[128];
    rl_size_label(in, &r->c[0], lab, sizeof lab);
    heading(d, 2, "Sensitivity: %s", lab);
    para(d, "The recommended deployment under changed traffic (meets by the rows' rule above: "
            "its p99s within the targets at the changed load and its max_sustainable_qps, "
            "searched on its row's requests, at least that load), and the fewest "
            "replicas of the same configuration that meet the targets at the changed load (no "
            "headroom added; at a lighter load that is the smallest deployment that still meets, "
            "searched down to one replica, not the one recommended; disaggregated: decode replicas at the prefill:decode ratio, then each pool "
            "trimmed to as few replicas as still meet, the untrimmed pair kept where the trimmed "
            "one's max_sustainable_qps falls below the changed load: the check the rows above "
            "pass).  A fresh size at that load also searches other "
            "configurations and adds the headroom, so it may differ.");
    /* fixND #9: "chips to meet" at QPS x0.5 read as half the load needing
     * the chips recommended; the header says it is the fewest at that load */
    char h[6][96] = {"change", "TTFT p99 (ms)", "TPOT p99 (ms)", "meets",
                     "fewest chips that meet", ""};
    snprintf(h[5], 96, "their cost (%s)", cost_unit(r));
    row(d, 1, 6, h);
    for (int i = 0; i < 3; i++) {
        const rl_size_sensitivity *s = &x->sens[i];
        char v[6][96];
        char pct[RL_PERCENT_STR];
        if (s->prompt_scale != 1 && s->redrawn_frac > 0) /* review30 M1 */
            snprintf(v[0], 96, "prompt length x%g (%s over max_context, %s)",
                     s->prompt_scale, rl_percent_str(s->redrawn_frac, pct),
                     in->trace ? "cut to fit" : "drawn again");
        else if (s->prompt_scale != 1)
            snprintf(v[0], 96, "prompt length x%g", s->prompt_scale);
        else
            snprintf(v[0], 96, "QPS x%g (%.3g req/s)", s->qps_scale, in->w.qps * s->qps_scale);
        snprintf(v[1], 96, "%.0f", s->fixed.ttft_p99 * 1e3);
        tpot_ms(v[2], 96, s->fixed.tpot_p99, 1, s->fixed.no_tpot);
        if (s->fixed.meets || s->fixed.verdict_by == RL_SIZE_VERDICT_CAPACITY)
            meets_by_rule(v[3], 96, &s->fixed);
        else
            snprintf(v[3], 96, "no");
        if (s->resized_ok) { /* met at p99; a capacity short of the load said (rl_size_decide) */
            if (s->resized.meets && s->resized.verdict_by == RL_SIZE_VERDICT_P99)
                snprintf(v[4], 96, "%lld (%s)", s->resized.chips_total, meets_yes(&s->resized));
            else
                snprintf(v[4], 96, s->resized.meets ? "%lld" : "%lld (sustains %.3g req/s only)",
                         s->resized.chips_total, s->resized.max_qps);
            snprintf(v[5], 96, r->priced ? "%.2f" : "%.0f", s->resized.cost_per_hour);
        } else {
            snprintf(v[4], 96, "not within 4x");
            snprintf(v[5], 96, "-");
        }
        row(d, 0, 6, v);
    }
    table_end(d);
}

/* How steps on hardware hw are timed: fitted engine costs, calibrated or
 * ideal, under the mode its rows carry (tester5 #2: the line read
 * "calibrated" beside a provenance line of mode estimated). */
static void assume_mode(doc *d, const rl_size_report_data *x, int hw)
{
    const rl_size_input *in = x->in;
    const rl_hw *h = &in->hw[hw];
    const char *mode = hw_mode(x, hw);
    const rl_engine_costs *ec = &h->engine_costs;
    if (in->calibrated && ec->present) {
        /* what each figure is relative to and whether the fit set it or
         * held it (review29 M4: "communication 1.00 of peak" for a held
         * comm_eff, tp_excess unnamed) */
        char how[320];
        rl_ec_comm_text(ec, 0, 1, h->collectives.present, how, sizeof how);
        item(d, "Mode on %s: fitted engine costs of %s (%s): each step takes max(host floor, "
                "device time) plus per-sequence costs, the device at compute %.2f (%s) and "
                "memory %.2f (%s) of peak, the collectives %s (src/enginecost.h); "
                "cross-validated |error| on the benchmark rows it was fitted on: median %.1f%%, "
                "p90 %.1f%%.",
             h->name, ec->engine, ec->source[0] ? ec->source : "source not given",
             ec->v[RL_EC_COMPUTE], rl_ec_said(ec, RL_EC_COMPUTE), ec->v[RL_EC_MEMORY],
             rl_ec_said(ec, RL_EC_MEMORY), how, 100 * ec->cv_median, 100 * ec->cv_p90);
    } else if (in->calibrated && h->efficiency.present) {
        char tab[512] = "", why[320];
        for (int c = 0; c < RL_EFF_CLASSES; c++) {
            const rl_eff_curve *cv = &h->efficiency.curve[c];
            for (int k = 0; k < cv->n; k++)
                snprintf(tab + strlen(tab), sizeof tab - strlen(tab), "%s%s %g: %.3g",
                         tab[0] ? "; " : "", rl_eff_class_name(c), cv->size[k], cv->frac[k]);
        }
        /* tester5 #12c: an efficiency measured on another chip is borrowed,
         * as the profile's own note says, not this chip's measurement */
        const char *on = h->efficiency.measured_on;
        char whose[256] = "the profile's efficiency";
        if (on[0] && strcmp(on, h->name) != 0)
            snprintf(whose, sizeof whose, "the efficiency borrowed from %s (not measured on %s)",
                     on, h->name);
        item(d, "Mode on %s: %s%s: operators an engine's kernel table covers at the run's "
                "dtypes take its times (provenance below), every other operator its roofline "
                "divided by %s (size: fraction of peak) plus %.3g s per kernel: %s (%s).",
             h->name, mode, mode_caution(mode, in, hw, why, sizeof why), whose, h->efficiency.overhead_s, tab,
             h->efficiency.source[0] ? h->efficiency.source : "source not given in the profile");
    } else if (in->calibrated && rl_hw_measured(h)) {
        /* kernel tables, no efficiency table (t56 #1: the datasheet branch
         * below said "nothing was measured" beside "kernel tables measured
         * on b200"): the rows' own predicate (rl_hw_measured, evidence_of) */
        char why[320];
        item(d, "Mode on %s: %s%s: operators an engine's kernel table covers at the run's "
                "dtypes take its times (provenance below), every other operator its roofline "
                "at efficiency 1.0 (no efficiency table in the profile): those operators are "
                "optimistic.",
             h->name, mode, mode_caution(mode, in, hw, why, sizeof why));
    } else {
        char given[64];
        snprintf(given, sizeof given, " (%s given)", in->ideal_by ? in->ideal_by : "--ideal");
        item(d, "Mode on %s: %s roofline (peak FLOP/s and HBM bandwidth, perfect overlap; "
                "efficiency 1.0)%s. A real engine reaches less: treat latencies as lower "
                "bounds and capacities as upper bounds.",
             h->name, in->calibrated ? "estimated: the datasheet" : "ideal",
             !in->calibrated ? given
                             : ": nothing was measured on this chip (no kernel tables, no "
                               "efficiency tables), its datasheet figures are assumed reached");
    }
}

/* Mode, engine and the provenance of the operator times on hardware hw
 * (issue 12 item 5): counted over one decode step (batch 1 at the mean
 * prompt + output context) on the chips and precision of the best
 * configuration found on it (1 chip, the first precision, when none). */
static void assume_provenance(doc *d, const rl_size_report_data *x, int hw)
{
    /* fixND #11: --engine E over a list applies where the profile has E */
    if (x->in->engine_asked && x->in->engine_lacking && x->in->engine_lacking[hw])
        item(d, "Engine on %s: --engine %s does not apply (the profile carries no %s tables); "
                "its rows are timed by its default engine, as each row's engine says.",
             x->in->hw[hw].name, x->in->engine_asked, x->in->engine_asked);
    const rl_size_input *in = x->in;
    const rl_hw *h = &in->hw[hw];
    long long chips = 1;
    rl_precision p = in->prec && in->nprec > 0 ? in->prec[0] : rl_precision_default();
    const rl_size_candidate *cand = NULL; /* the hw's first row labels it, as in the table */
    for (int i = 0; i < x->res->n && !cand; i++)
        if (x->res->c[i].hw == hw) {
            cand = &x->res->c[i];
            chips = cand->chips;
            p = cand->p;
        }
    /* no row on a fitted profile: the dtypes and the smallest TP its fit
     * was fitted on (fitted_on.weights, .kv, .compute, grid.tp), not the
     * search's first precision (tester72 finding 3: "bf16 weights" of a
     * profile fitted on fp8 rows only) */
    const rl_engine_costs *ec = &h->engine_costs;
    char fit[320] = "";
    if (ec->present && ec->weights[0]) {
        rl_dtype *to[RL_EC_DTYPES] = {&p.weights, &p.kv, &p.compute};
        const char *from[RL_EC_DTYPES] = {ec->weights, ec->kv, ec->compute};
        for (int k = 0; k < RL_EC_DTYPES && !cand; k++) {
            char first[16];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(from[k], ","), from[k]);
            rl_dtype_parse(first, to[k]);
        }
        if (!cand && ec->grid[RL_EC_TP][0] >= 1)
            chips = (long long)ec->grid[RL_EC_TP][0];
        snprintf(fit, sizeof fit, "; its fit's rows: weights %.60s, KV %.60s, compute %.60s%s",
                 ec->weights, ec->kv[0] ? ec->kv : "not recorded", ec->compute[0] ? ec->compute
                 : "not recorded", cand ? "" : " (no row on it: the step below at its first "
                 "dtypes and smallest TP)");
    }
    double prompt, output;
    rl_size_mean_lengths(in, &prompt, &output);
    long long ctx = llround(fmax(1.0, fmin(prompt + output, (double)in->m->max_context)));
    double share = cand ? rl_size_share(in, cand) : rl_ops_decode_share(in->m, h, chips, 1, 1, 1, ctx, p);
    rl_ops_config c = rl_ops_mixed_config(chips, p, 0, 0, 1, ctx);
    c.calibrated = in->calibrated;
    const rl_serving_engine *e = in->calibrated ? rl_engines_selected(&h->engines) : NULL;
    const char *mode = cand ? rl_size_mode(in, cand) /* fitted: inside the fit (rl_hw_fit_mode) */
                            : rl_run_mode(rl_hw_default_mode(h, in->calibrated), h, share,
                                          in->m->abstract ? NULL : RL_PLAN_DTYPES(p));
    char eng[2200] = "no engine's kernel tables";
    if (e && e->tables)
        snprintf(eng, sizeof eng, "engine %s %s, kernel tables measured on %s (%s)%s%s%s", e->name,
                 e->version, e->measured_on, e->source,
                 rl_hw_what_if_of(h) ? ", on the what-if " : "", rl_hw_what_if_of(h) ? h->changed : "",
                 rl_hw_what_if_of(h) ? ": " RL_ENGINE_WHAT_IF_RULE : "");
    rl_ops o;
    char err[256];
    if (rl_ops_build(in->m, h, &c, &o, err, sizeof err) != 0) {
        item(d, "Mode on %s: %s; %s; operator provenance not available (%s).", h->name, mode, eng,
             err);
        return;
    }
    /* t56 #2: routed experts no MoE table holds are derived from the dense
     * GEMM table, not from another dtype (step's note, said below) */
    char *moe = rl_size_moe_note(in, x->res, hw);
    int from_gemm = moe != NULL;
    item(d, "Provenance on %s: mode %s; %s%s; the %d operators of one decode step (batch 1, "
            "context %lld, %lld chip%s, %s weights) are timed %d measured, %d interpolated, "
            "%d extrapolated (kernel tables, collectives), %d derived (%s, docs/model.md) and "
            "%d by the roofline%s.",
         h->name, mode, eng, fit, o.n, ctx, chips, chips > 1 ? "s" : "", rl_dtype_name(p.weights),
         o.prov[RL_PROV_MEASURED], o.prov[RL_PROV_INTERPOLATED], o.prov[RL_PROV_EXTRAPOLATED],
         o.prov[RL_PROV_DERIVED],
         from_gemm ? "the routed experts timed from the dense GEMM table, MoE experts below; "
                     "any other operator from another dtype's measured efficiency or a "
                     "measured time moved to figures nobody measured"
                   : "another dtype's measured efficiency, or a measured time moved to "
                     "figures nobody measured",
         o.prov[RL_PROV_ROOFLINE],
         h->efficiency.present && in->calibrated ? " (scaled by the efficiency above)" : "");
    if (from_gemm)
        item(d, "MoE experts on %s: %s.", h->name, moe);
    free(moe);
    char dn[1024]; /* the rows on hw at a dtype its tables lack (tester51 F4) */
    if (rl_size_derived_note(in, x->res, hw, dn, sizeof dn) > 0)
        item(d, "Derived on %s: %s.", h->name, dn);
    if (rl_size_outside_note(in, x->res, hw, dn, sizeof dn) > 0) /* as size's note (stop 38 #1) */
        item(d, "Collectives beyond the measured GPU counts on %s: %s.", h->name, dn);
}

/* Every assumption the figures rest on. */
static void report_assumptions(doc *d, const rl_size_report_data *x)
{
    const rl_size_input *in = x->in;
    heading(d, 2, "Assumptions");
    for (int i = 0; i < in->nhw; i++) {
        assume_mode(d, x, i);
        assume_provenance(d, x, i);
    }
    item(d, "Step cost: the operator list of each step (embedding, norms, projections, attention, "
            "MLP, LM head), every operator at its own roofline over the replica's chips, for the "
            "step's actual mix of prefill tokens and decode sequences, plus the 1D tensor-parallel "
            "(Megatron) collectives over the replica's chips for the step's token rows, not "
            "overlapped with compute (shard and comm modules).");
    for (int i = 0; i < in->nhw; i++) {
        const rl_hw *h = &in->hw[i];
        /* fixNI #2: ideal mode times every collective by the alpha-beta
         * model (comm.c rl_comm_time: measured = !h->ideal), its table
         * or not */
        if (h->collectives.present && !h->ideal && in->calibrated)
            item(d, "Collectives on %s: %s, AllReduce from the %s rows and the others "
                    "from the %s rows (%s; fitted on %s), interpolated between "
                    "measured sizes; group sizes not measured and groups crossing a %lld-chip "
                    "domain use the alpha-beta model.",
                 h->name,
                 rl_comm_link_moved(h)
                     ? "derived times (provenance derived), the measured ones moved to its "
                       "link figures by the link what-if rule (" RL_COMM_WHAT_IF_RULE "), not "
                       "measured on it"
                     : "measured times",
                 rl_coll_allreduce_impl(&h->collectives), h->collectives.impl,
                 h->collectives.source,
                 h->collectives.fitted_on[0] ? h->collectives.fitted_on : "rows not stated",
                 h->domain_chips);
        else
            item(d, "Collectives on %s: the alpha-beta model (per-hop latency and link bandwidth "
                    "of the profile; %s).", h->name,
                 h->collectives.present ? "its measured table is not used in ideal mode"
                                        : "no measured table");
    }
    item(d, "Precision: int8 and fp8 weights/KV are assumed to keep acceptable quality (check with "
            "your evaluations; --keep-precision restricts the search to the given dtypes).");
    for (int i = 0; i < in->nhw; i++)
        memory_rule(d, in, &in->hw[i]);
    item(d, "KV cache in %d-token pages: each sequence holds whole pages (half a page of "
            "fragmentation a sequence on average once it spans several); preemption by "
            "recompute.", rl_serve_config_default().page_tokens);
    char ran[320];
    requests_by_load(in, ran, sizeof ran);
    item(d, "Traffic: %s; %lld simulated requests per configuration at the load%s%s%s percentiles "
            "over all of them (no warm-up discarded); a drawn request whose prompt + output "
            "exceeds the model's max_context is drawn again (a server refuses it; a trace row "
            "that long is an error).",
         in->trace ? "replayed from the trace" : "seeded synthetic arrivals", rl_size_requests(in, 1),
         ran[0] ? "; " : "", ran, ran[0] ? ";" : ",");
    for (int i = 0; i < in->nhw; i++) {
        const rl_hw *h = &in->hw[i];
        if (h->price_per_chip_hour > 0)
            item(d, "Price of %s: %.2f USD per chip-hour (%s).", h->name, h->price_per_chip_hour,
                 h->price_source[0] ? h->price_source : "no source given");
        else
            item(d, "Price of %s: none (price_per_chip_hour absent or 0 in %s); cost is counted in chips.", h->name,
                 h->origin);
        /* the datasheet names the capacity in GiB (its "80GB"), review28 M2 */
        /* both links, and what crosses each (tester59 #5: "network 50.0
         * GB/s per chip" named the scale-out figure alone, while NVLink's
         * 450 GB/s carries an H100 replica's TP collectives; comm.c routes
         * a group within domain_chips over the chip-to-chip links) */
        item(d, "%s: %.4g GiB HBM (%.1f GB) at %.2f TB/s, %.0f TFLOP/s bf16 per chip; scale-up "
                "(%s, the chip-to-chip links: %s) %.1f GB/s one-way per chip (%lld links x "
                "%.1f GB/s) within a domain of %lld chips, carrying the collectives of a replica's "
                "chips inside one domain; scale-out network %.1f GB/s per chip between domains, "
                "carrying disaggregated plans' KV transfers and the collectives of a group that "
                "crosses domains (%s).",
             h->name, h->hbm_bytes / RL_GIB, h->hbm_bytes / 1e9, h->hbm_bw / 1e12, rl_hw_peak(h, RL_BF16) / 1e12,
             rl_topology_name(h->topology), h->topology == RL_TOPO_SWITCH ? "NVLink" : "ICI",
             h->ici_bw * (double)h->ici_links / 1e9, h->ici_links, h->ici_bw / 1e9,
             h->domain_chips, h->net_bw / 1e9, h->source);
    }
}

/* How the search ran, and the command line. */
static void report_method(doc *d, const rl_size_report_data *x)
{
    const rl_size_result *r = x->res;
    heading(d, 2, "Method");
    /* the caps the rows read (t56 #4: "16..256" beside B<=512 and B<=4096
     * rows): under attention data parallel a cap is per chip (size.c) */
    int lo = 0, hi = 0;
    for (int i = 0; i < r->n; i++) {
        lo = i == 0 || r->c[i].max_seqs < lo ? r->c[i].max_seqs : lo;
        hi = i == 0 || r->c[i].max_seqs > hi ? r->c[i].max_seqs : hi;
    }
    char caps[160] = "";
    if (r->n > 0 && (lo < rl_size_batch_caps[0] || hi > rl_size_batch_caps[RL_SIZE_NCAPS - 1]))
        snprintf(caps, sizeof caps, " sequences, per chip of a replica under attention data "
                 "parallel: the simulated rows read %d..%d", lo, hi);
    item(d, "Search space: hardware x precision (bf16; int8 weights+KV; fp8 or int8 end to end "
            "where the chip has that peak) x chips per replica (powers of 2 up to the NVLink/ICI "
            "domain; beyond it, while no smaller replica holds the model or up to --max-chips, "
            "as TP over all chips and as pipeline stages of one domain each; for MoE models "
            "each stage also with expert-parallel groups (ep, powers of 2 dividing its chips and "
            "the experts) and attention data parallel) x policy (continuous, chunked prefill with %d or %d-token budgets, "
            "disaggregated prefill/decode) x batch cap (%d..%d%s) x replica count.",
         RL_SIZE_CHUNK_SMALL, RL_SIZE_CHUNK_LARGE, rl_size_batch_caps[0],
         rl_size_batch_caps[RL_SIZE_NCAPS - 1], caps);
    item(d, "Analytic pruning: weights must leave KV room; prefill of the mean prompt must fit the "
            "TTFT target; the decode step of one sequence at the shortest prompt must fit the TPOT "
            "target; replica counts from per-replica capacity at %.0f%% load, at the batch cap or "
            "the largest batch whose step fits the TPOT target. %lld configurations pruned.",
         100 * RL_SIZE_DECODE_LOAD, r->pruned);
    if (r->n == 0)
        item(d, "Simulation: none; every plan was pruned analytically, so the report has no "
                "table of configurations.");
    else
        item(d, "Simulation: the %d cheapest plans were simulated with the discrete-event "
                "serving simulator, each replica count searched until the targets hold: %.1f s "
                "in total.", r->n, r->search_s);
    if (x->command && d->html)
        item(d, "Command: %s", x->command);
    else if (x->command)
        md_code_item(d, "Command: ", x->command);
}

/* The whole report, section by section. */
static void write_report(doc *d, const rl_size_report_data *x)
{
    report_head(d, x);
    hw_views v;
    hw_views_build(x, &v);
    report_recommendation(d, x, &v);
    report_workload(d, x);
    if (x->res->n > 0) /* none simulated (all pruned, fixRC #7): no table to show */
        report_tables(d, x, &v);
    hw_views_free(&v);
    report_load_curve(d, x);
    report_memory(d, x);
    report_sensitivity(d, x);
    report_assumptions(d, x);
    report_method(d, x);
    end_list(d);
    if (d->html)
        fputs("</body></html>\n", d->f);
}

char *rl_size_report_render(const rl_size_report_data *x, int html)
{
    char *out = NULL;
    size_t len = 0;
    doc d = {open_memstream(&out, &len), html, 0};
    if (!d.f)
        return NULL;
    write_report(&d, x);
    if (fclose(d.f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
