/* test_measure.c — the measurement CSV (measure.h): rows, configurations,
 * the static row's time, and errors naming file, line and column. */
#include "testutil.h"

#include "csv.h"
#include "measure.h"
#include "report.h"

#include <cjson/cJSON.h>

#define EXCERPT RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv"

/* Read `text` as a CSV; returns rl_measure_read's status, err filled. */
static int read_text(const char *text, rl_meas *m, char *err, size_t errlen)
{
    char path[64];
    write_temp(path, ".csv", text);
    int rc = rl_measure_read(path, m, err, errlen);
    unlink(path);
    return rc;
}

/* A measurement CSV that roofline's own --format csv wrote (report.c, the
 * writer the fit/validate outputs use): string cells holding a comma and a
 * double quote come back quoted, "" for the quote (RFC 4180 rules 6-7), and
 * read back as written (tester14 F4b: '"decode"' was an unknown phase). */
static void reads_our_own_csv(void **state)
{
    (void)state;
    cJSON *res = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(res, "rows");
    const char *engines[] = {"trtllm, nightly", "say \"v2\""};
    for (int i = 0; i < 2; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "phase", "decode");
        cJSON_AddNumberToObject(r, "tp", 2);
        cJSON_AddNumberToObject(r, "batch", 8 << i);
        cJSON_AddNumberToObject(r, "context", 1024);
        cJSON_AddNumberToObject(r, "measured_s", 0.0125);
        cJSON_AddStringToObject(r, "engine", engines[i]);
        cJSON_AddItemToArray(rows, r);
    }
    char err[1024], path[64];
    char *text = rl_report_render(res, RL_FMT_CSV, err, sizeof err);
    cJSON_Delete(res);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"trtllm, nightly\"")); /* the writer quoted it */
    assert_non_null(strstr(text, "\"say \"\"v2\"\"\"\n"));
    write_temp(path, ".csv", text);
    free(text);
    rl_meas m;
    int rc = rl_measure_read(path, &m, err, sizeof err);
    unlink(path);
    if (rc != 0)
        fail_msg("%s", err);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.row[1].batch, 16);
    assert_string_equal(m.row[0].engine, "trtllm, nightly");
    assert_string_equal(m.row[1].engine, "say \"v2\"");
    rl_measure_free(&m);
    /* a spreadsheet's quoted phase and numbers, blanks around the quotes */
    assert_int_equal(read_text("\"phase\",\"tp\",batch,context,measured_s\r\n"
                               "\"decode\", \"1\" ,1,512,0.008\r\n", &m, err, sizeof err), 0);
    assert_int_equal(m.row[0].phase, RL_MEAS_DECODE);
    assert_int_equal(m.row[0].tp, 1);
    rl_measure_free(&m);
    /* a broken quote names line and column, by name once the header gave it */
    assert_int_equal(read_text("phase,tp,batch,context,measured_s\ndecode,1,1,\"512\"x,0.008\n",
                               &m, err, sizeof err), -1);
    assert_non_null(strstr(err, ".csv:2: column 'context' (column 4): text after the closing quote"));
    assert_int_equal(read_text("phase,\"tp,batch\n", &m, err, sizeof err), -1);
    assert_non_null(strstr(err, ".csv:1: column 2: a quoted field without its closing quote"));
    assert_int_equal(read_text("phase,tp,batch,context,measured_s\nde\"code,1,1,512,0.008\n", &m,
                               err, sizeof err), -1);
    assert_non_null(strstr(err, ".csv:2: column 'phase' (column 1): a double quote inside a field"));
}

/* rl_csv_split on its own: fields, blanks, "" and the count past cap. */
static void csv_split_rules(void **state)
{
    (void)state;
    char line[] = " a , \"b,\"\"c\"\"\" ,,\" d \"\r", *f[4];
    int col;
    const char *why;
    assert_int_equal(rl_csv_split(line, f, 4, &col, &why), 4);
    assert_string_equal(f[0], "a");
    assert_string_equal(f[1], "b,\"c\"");
    assert_string_equal(f[2], "");
    assert_string_equal(f[3], " d ");
    char more[] = "1,2,3";
    assert_int_equal(rl_csv_split(more, f, 2, &col, &why), 3);
}

/* RFC 4180 rule 6: a quoted field may hold a line break (stop 38 refused
 * it).  Expected: rl_csv_record spans it (one break, the record's length
 * up to its closing newline), rl_csv_split keeps it in the field; a CSV
 * with a multi-line note cell (a column not read) reads its rows, each
 * named by the line it starts on: row 1 at line 2 (its note runs to line
 * 4, CRLF inside kept), row 2 at line 5; an error in the row after them
 * says line 6, the file's own line, and an error in a row whose note spans
 * lines 3-4 says 3.  A name cell holding a line break is refused (no
 * model, hw, engine or dtype has one), and an unclosed quote that runs to
 * the end of the file is said at the line its row starts on. */
static void csv_multiline_fields(void **state)
{
    (void)state;
    int breaks, unclosed;
    const char *rec = "a,\"x\ny, \"\"z\"\"\",b\nnext\n";
    assert_int_equal(rl_csv_record(rec, &breaks, &unclosed), 16);
    assert_int_equal(breaks, 1);
    assert_int_equal(unclosed, 0);
    assert_int_equal(rl_csv_record("a,b\"c\nd\"\n", &breaks, &unclosed), 5); /* no field's opening quote */
    assert_int_equal(rl_csv_record("a,\"b\nc", &breaks, &unclosed), 6);
    assert_int_equal(unclosed, 1);
    /* review50: a quote after a closing one opens nothing (rl_csv_split
     * refuses the field): the record ends at its line, 6 bytes, none open */
    assert_int_equal(rl_csv_record("\"a\" \"b\nc\"\n", &breaks, &unclosed), 6);
    assert_int_equal(breaks, 0);
    assert_int_equal(unclosed, 0);
    char line[] = "a,\"x\ny, \"\"z\"\"\",b", *f[4];
    int col;
    const char *why;
    assert_int_equal(rl_csv_split(line, f, 4, &col, &why), 3);
    assert_string_equal(f[1], "x\ny, \"z\"");
    rl_meas m;
    char err[1024];
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,notes\r\n"
                               "decode,1,1,512,0.008,\"warm-up excluded,\r\nsee\r\nrun 7\"\r\n"
                               "decode,1,2,512,0.009,plain\r\n",
                               &m, err, sizeof err),
                     0);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.row[0].line, 2);
    assert_int_equal(m.row[1].line, 5);
    assert_int_equal(m.row[1].batch, 2);
    rl_measure_free(&m);
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,notes\n"
                               "decode,1,1,512,0.008,\"two\nlines\"\n"
                               "decode,1,x,512,0.009,\n",
                               &m, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ".csv:4: column 'batch' (column 3): expected a positive integer"));
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,notes\n"
                               "# a comment with a \" quote opens nothing\n"
                               "decode,1,0,512,0.008,\"two\nlines\"\n",
                               &m, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ".csv:3: column 'batch' (column 3)"));
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,engine\n"
                               "decode,1,1,512,0.008,\"vl\nlm\"\n",
                               &m, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ".csv:2: column 'engine' (column 6): a line break inside the cell"));
    /* review50: a cell echoed in an error shows its line break as \x0A (csv.h
     * rl_csv_visible, as --trace's errors do), the message one line */
    assert_int_equal(read_text("phase,tp,batch,context,measured_s\n"
                               "decode,1,1,512,\"0.\n008\"\n",
                               &m, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ".csv:2: column 'measured_s' (column 5): expected a number, got "
                                "'0.\\x0A008'"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,notes\n"
                               "decode,1,1,512,0.008,\"open\ndecode,1,1,512,0.009,\n",
                               &m, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ".csv:2: column 6: a quoted field without its closing quote (it "
                                "runs to the end of the file"));
}

static void excerpt(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(rl_measure_read(EXCERPT, &m, err, sizeof err), 0);
    /* 47 data rows after 5 comment lines and the header (wc -l: 53 lines) */
    assert_int_equal(m.n, 47);
    assert_int_equal(m.nconfig, 47); /* medians: one row per configuration */
    const rl_meas_row *r = &m.row[0];
    assert_int_equal(r->line, 7);
    assert_int_equal(r->phase, RL_MEAS_DECODE);
    assert_int_equal(r->tp, 2);
    assert_int_equal(r->context, 1024);
    assert_string_equal(r->hw, "h100-sxm");
    assert_rel(r->measured, 0.0370666, 1e-12); /* the file's first data row */
    rl_measure_free(&m);
}

static void repeats_share_a_configuration(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(read_text("phase,tp,batch,context,tokens,output,measured_s,measured_tok_s_per_gpu\n"
                               "decode,2,1,100,,,0.03,\n"
                               "decode,2,1,100,,,0.031,\n"
                               "prefill,2,1,,100,,0.05,\n"
                               "static,4,8,,512,128,,100\n"
                               "decode, 2 ,1,100,,,0.029,\n",
                               &m, err, sizeof err),
                     0);
    assert_int_equal(m.n, 5);
    assert_int_equal(m.nconfig, 3);
    assert_int_equal(m.row[0].config, m.row[1].config);
    assert_int_equal(m.row[0].config, m.row[4].config);
    assert_int_not_equal(m.row[0].config, m.row[2].config);
    /* static: 8 sequences x 128 tokens at 100 tok/s per GPU on 4 GPUs: 2.56 s */
    assert_rel(rl_meas_time(&m.row[3]), 8.0 * 128 / (100.0 * 4), 1e-12);
    rl_measure_free(&m);
    /* engine "none" (validate's word for no engine) and an empty cell are
     * one configuration and key alike (review: they hashed apart, so folds
     * holding out whole configurations could split one); vllm is another */
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,engine\n"
                               "decode,2,1,100,0.03,none\n"
                               "decode,2,1,100,0.031,\n"
                               "decode,2,1,100,0.03,\n"
                               "decode,2,1,100,0.03,vllm\n",
                               &m, err, sizeof err),
                     0);
    assert_int_equal(m.nconfig, 2);
    assert_int_equal(m.row[0].config, m.row[1].config);
    assert_int_not_equal(m.row[0].config, m.row[3].config);
    assert_int_equal(rl_meas_row_key(&m.row[0]), rl_meas_row_key(&m.row[2]));
    assert_int_not_equal(rl_meas_row_key(&m.row[0]), rl_meas_row_key(&m.row[3]));
    rl_measure_free(&m);
}

/* tester53 F5: validate's own rows read back: a static row giving
 * measured_s (the whole run, as validate writes it) and no
 * measured_tok_s_per_gpu is read as batch x output / (time x GPUs): 8 x 128
 * / (1.6 s x 2) = 320 tok/s per GPU (hand-derived, 1e-12); kv_split is read
 * (not in the ignored list), an unknown layout refused naming its column. */
static void validate_rows_read_back(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(read_text("phase,tp,batch,context,tokens,output,kv_split,measured_s,predicted_s\n"
                               "static,2,8,0,512,128,replicate,1.6,0.5\n"
                               "decode,2,8,100,0,0,,0.03,0.004\n",
                               &m, err, sizeof err),
                     0);
    assert_rel(m.row[0].measured, 320, 1e-12);
    assert_string_equal(m.row[0].kv_split, "replicate");
    assert_string_equal(m.row[1].kv_split, "");
    assert_string_equal(m.ignored, "'predicted_s'");
    rl_measure_free(&m);
    assert_int_equal(read_text("phase,tp,batch,context,measured_s,kv_split\ndecode,2,8,100,0.03,x\n",
                               &m, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ":2: column 'kv_split' (column 6): expected batch, seq or replicate"));
    /* tester59 F5: both measurements agreeing within 1% are read, tok/s the
     * one used: 0.7350 s against 8 x 128 / (700 x 2) = 0.73143 s, +0.49% */
    assert_int_equal(read_text("phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu\n"
                               "static,2,8,512,128,0.7350,700\n", &m, err, sizeof err),
                     0);
    assert_rel(m.row[0].measured, 700, 1e-15);
    rl_measure_free(&m);
}

/* audit31 finding 4: pp and ep rows are read (before: refused "not
 * modelled yet"), 1 where absent or empty, their columns recorded for
 * e2e.c's errors; a pp or ep row is its own configuration; a static row's
 * GPUs are tp x ep x pp: 8 sequences x 128 tokens at 100 tok/s per GPU on
 * 2 x 2 x 2 GPUs is 8 x 128 / 800 = 1.28 s (hand-derived, 1e-12). */
static void layout_columns_read(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(read_text("phase,tp,batch,context,tokens,output,measured_s,measured_tok_s_per_gpu,pp,ep\n"
                               "decode,2,8,100,,,0.03,,2,\n"
                               "decode,2,8,100,,,0.03,,,\n"
                               "decode,2,8,100,,,0.03,,1,4\n"
                               "static,2,8,,512,128,,100,2,2\n",
                               &m, err, sizeof err),
                     0);
    assert_int_equal(m.n, 4);
    assert_int_equal(m.tp_col, 2);
    assert_int_equal(m.pp_col, 9);
    assert_int_equal(m.ep_col, 10);
    assert_int_equal(m.row[0].pp, 2);
    assert_int_equal(m.row[0].ep, 1);
    assert_int_equal(m.row[1].pp, 1);
    assert_int_equal(m.row[2].ep, 4);
    assert_int_not_equal(m.row[0].config, m.row[1].config);
    assert_int_not_equal(m.row[1].config, m.row[2].config);
    assert_rel(rl_meas_time(&m.row[3]), 8.0 * 128 / (100.0 * 8), 1e-12);
    rl_measure_free(&m);
    assert_int_equal(read_text("phase,tp,batch,context,measured_s\ndecode,2,8,100,0.03\n", &m, err,
                               sizeof err),
                     0);
    assert_int_equal(m.pp_col, 0);
    assert_int_equal(m.ep_col, 0);
    rl_measure_free(&m);
}

typedef struct {
    const char *text;
    const char *fragment;
} bad;

static void errors_name_line_and_column(void **state)
{
    (void)state;
    static const bad cases[] = {
        {"", "empty: a header line is required"},
        {"phase,tp,batch,context,measured_s\n", "no data rows"},
        /* review44: a `table` column (roofline's CSV of several tables) whose lines
         * name no rows: said so (it read "no data rows after the header") */
        {"phase,tp,batch,context,measured_s,table\ndecode,2,1,100,0.1,A\ndecode,2,1,100,0.1,B\n",
         "no data rows: 2 lines after the header, each with a 'table' cell (column 6) other than 'rows'"},
        {"phase,tp,context,measured_s\ndecode,2,100,0.1\n", ":1: column 'batch': missing from the header"},
        {"phase,tp,batch,measured_s\ndecode,2,1,0.1\n", ":2: column 'context': missing from the header (a decode row needs it)"},
        {"phase,tp,batch,context,measured_s\nsteady,2,1,100,0.1\n", ":2: column 'phase' (column 1): unknown phase 'steady'"},
        {"phase,tp,batch,context,measured_s\ndecode,two,1,100,0.1\n", ":2: column 'tp' (column 2): expected a positive integer, got 'two'"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,-0.1\n", ":2: column 'measured_s' (column 5): must be > 0"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,nan\n", "column 'measured_s' (column 5): expected a number"},
        {"phase,tp,batch,context,measured_s\ndecode,2,0,100,0.1\n", "column 'batch' (column 3): expected a positive integer"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1.5,100,0.1\n", "column 'batch' (column 3): expected a positive integer"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,,0.1\n", "column 'context' (column 4): empty, but a decode row needs it"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100\n", ":2: 4 fields, the header has 5"},
        /* a misspelt column is not read, and named where it is missed */
        {"phase,tp,batch,contxt,measured_s\ndecode,2,1,100,0.1\n", ":2: column 'context': missing from the header (a decode row needs it; not read: 'contxt')"},
        {"phase,tp,tp,batch\n", "column 'tp' (column 2): given twice"},
        /* tester52 F8: `table` twice was accepted, the first read */
        {"table,phase,tp,batch,context,measured_s,table\nrows,decode,1,1,128,0.01,rows\n",
         ":1: column 'table' (column 7): given twice (also column 1)"},
        /* pp and ep (audit31 finding 4): positive integers, as tp; the plan's
         * own limits (layers, experts) are e2e.c's (test_e2e
         * layout_rows_refused) */
        {"phase,tp,batch,context,measured_s,pp\ndecode,2,1,100,0.1,0\n", "column 'pp' (column 6): expected a positive integer (1 .. 1e9), got '0'"},
        {"phase,tp,batch,context,measured_s,pp\ndecode,2,1,100,0.1,-2\n", "column 'pp' (column 6): expected a positive integer (1 .. 1e9), got '-2'"},
        {"phase,tp,batch,context,measured_s,ep\ndecode,2,1,100,0.1,1.5\n", "column 'ep' (column 6): expected a positive integer (1 .. 1e9), got '1.5'"},
        {"phase,tp,batch,context,measured_s,ep\ndecode,2,1,100,0.1,two\n", "column 'ep' (column 6): expected a positive integer, got 'two'"},
        /* tester4 #6: measurements outside the physical range (measure.c MEAS_RANGE) */
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,1e308\n", ":2: column 'measured_s' (column 5): 1e308 is outside the physical range (1e-07, 100000) s"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,1e-300\n", ":2: column 'measured_s' (column 5): 1e-300 is outside the physical range"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,1e-400\n", "column 'measured_s' (column 5): expected a number, got '1e-400' (so small that it underflows to 0"},
        /* one number reader (number.h, stop 25): hex was read as 2 and 1/32 s */
        {"phase,tp,batch,context,measured_s\ndecode,0x2,1,100,0.1\n", "column 'tp' (column 2): expected a positive integer, got '0x2' (hexadecimal numbers are not accepted"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,0x1p-5\n", "column 'measured_s' (column 5): expected a number, got '0x1p-5' (hexadecimal"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,1e400,0.1\n", "column 'context' (column 4): expected a positive integer, got '1e400' (too large for a double"},
        {"phase,tp,batch,tokens,output,measured_tok_s_per_gpu\nstatic,2,1,100,10,2e7\n", ":2: column 'measured_tok_s_per_gpu' (column 6): 2e7 is outside the physical range (1e-06, 1e+07) tokens/s per GPU"},
        {"phase,tp,batch,context,measured_s\ndecode,2,1,100,1e5\n", "1e5 is outside"},
        /* a static row with neither measurement names both columns it
         * accepts (review: only measured_tok_s_per_gpu was named) */
        {"phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu\nstatic,2,8,512,128,,\n",
         ":2: a static row needs measured_tok_s_per_gpu or measured_s (the whole run's time): "
         "measured_tok_s_per_gpu empty, measured_s empty"},
        {"phase,tp,batch,tokens,output,tok_s\nstatic,2,8,512,128,300\n",
         ":2: a static row needs measured_tok_s_per_gpu or measured_s (the whole run's time): "
         "measured_tok_s_per_gpu not in the header, measured_s not in the header; not read: "},
        /* tester59 F5: both measurements of a static row, disagreeing: 8 x 128 /
         * (700 x 2) = 0.7314 s against measured_s 99 was read by one, unsaid */
        {"phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu\nstatic,2,8,512,128,99,700\n",
         ":2: column 'measured_s' (column 6) and column 'measured_tok_s_per_gpu' (column 7) "
         "disagree: measured_s 99 s, while measured_tok_s_per_gpu 700 gives batch x output / "
         "(tok/s x GPUs) = 8 x 128 / (700 x 2) = 0.7314 s (+13435.2%, more than the 1% allowed)"},
        /* 1.1% apart: outside the 1% tolerance */
        {"phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu\nstatic,2,8,512,128,0.7395,700\n",
         "(+1.1%, more than the 1% allowed)"},
        /* the GPUs are tp x ep x pp (rl_meas_time, the one formula the check
         * calls): 8 x 128 / (100 x 2 x 2 x 2) = 1.28 s; 1.30 s is +1.6% */
        {"phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu,pp,ep\n"
         "static,2,8,512,128,1.30,100,2,2\n",
         "= 8 x 128 / (100 x 8) = 1.28 s (+1.6%, more than the 1% allowed)"},
        /* a measured_s out of range beside a good tok/s is still refused */
        {"phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu\nstatic,2,8,512,128,1e9,700\n",
         ":2: column 'measured_s' (column 6): 1e9 is outside the physical range"},
        /* the second byte-order mark is shown, as --trace shows one (review50:
         * rl_csv_visible; it printed invisibly) */
        {"\xEF\xBB\xBF\xEF\xBB\xBFphase,tp,batch\n", ":1: column 'phase': missing from the header (required; not read: '\\xEF\\xBB\\xBFphase')"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_meas m;
        char err[1024];
        assert_int_equal(read_text(cases[i].text, &m, err, sizeof err), -1);
        if (!strstr(err, cases[i].fragment))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err, cases[i].fragment);
        assert_null(m.row);
    }
}

/* A UTF-8 byte-order mark opening the file, as spreadsheets export CSV, is
 * skipped (tester4 #15: it read as a column '\ufeffphase'); the edges of the
 * physical range inside it are accepted. */
static void bom_and_range_edges(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(read_text("\xEF\xBB\xBFphase,tp,batch,context,measured_s\n"
                               "decode,2,1,100,1.1e-7\n"
                               "decode,2,1,100,9.9e4\n",
                               &m, err, sizeof err),
                     0);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.row[0].line, 2);
    assert_rel(m.row[1].measured, 9.9e4, 1e-12);
    rl_measure_free(&m);
}

/* A static row's measured_s and tok/s per GPU are related by rl_meas_time
 * alone (stop 38's review: the parse wrote the formula out twice more).
 * Expected, exact to 1e-12 (one expression each way): measured_s 1.28
 * alone, tp 2 x pp 2 x ep 2 GPUs, batch 8 x output 128 reads as
 * 1024 / (1.28 x 8) = 100 tok/s per GPU, whose time rl_meas_time gives
 * back as 1.28 s; both cells, 1.28 s beside 100 tok/s, agree (0%). */
static void static_rate_one_formula(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(read_text("phase,tp,batch,tokens,output,measured_s,measured_tok_s_per_gpu,pp,ep\n"
                               "static,2,8,512,128,1.28,,2,2\n"
                               "static,2,8,512,128,1.28,100,2,2\n",
                               &m, err, sizeof err),
                     0);
    assert_int_equal(m.n, 2);
    assert_rel(m.row[0].measured, 100, 1e-12);
    assert_rel(rl_meas_time(&m.row[0]), 1.28, 1e-12);
    assert_int_equal(m.row[0].measured_s_given, 1);
    assert_rel(m.row[1].measured, 100, 1e-12);
    assert_int_equal(m.row[1].measured_s_given, 0);
    rl_measure_free(&m);
}

/* Columns that are not measurement fields are not read, and named
 * (tester15 F-csv-1: roofline's own `fit --format csv` output, 42 columns,
 * was refused as "more than 16 columns in the header").  The header is
 * fit's (roofline fit tests/data/e2e/tester_device_bound.csv --hw h100-sxm
 * --model llama3-70b --format csv, stop 24), the row its first with the
 * quoted identifiability cell (commas inside, RFC 4180) shortened; the row reads as the
 * measurement it carries (decode, tp 8, batch 1, context 1024, 0.012 s)
 * and the hw column as the override it is.  Past 256 columns a header is
 * refused. */
static void other_columns_not_read(void **state)
{
    (void)state;
    rl_meas m;
    char err[1024];
    assert_int_equal(
        read_text("file,hash,engine,fitted_rows,configurations,left_out_rows,iterations,"
                  "residual_sd_log,identifiability,fit_median_abs_error,fit_p90_abs_error,"
                  "fit_max_abs_error,fit_bias,cv_folds,cv_median_abs_error,cv_p90_abs_error,"
                  "cv_max_abs_error,cv_bias,band_p10,band_p90,band_decode_p10,band_decode_p90,"
                  "band_prefill_p10,band_prefill_p90,band_per_class_from,band_per_octave_decode,"
                  "band_per_octave_prefill,band_per_octave_static,band_per_octave_from,line,phase,"
                  "hw,tp,batch,context,tokens,output,measured_s,predicted_s,residual,"
                  "cv_predicted_s,cv_error\n"
                  "t.csv,fnv1a64:3eaf445774471490,tester_device_bound,12,12,0,36,0.0583,\"a, b\","
                  "0.0209,0.0731,0.107,-0.00058,5,0.0559,0.149,0.667,0.0559,-0.392,0.136,-0.151,"
                  "0.0646,-0.463,0.199,pooled,0,0,0,nested,6,decode,h100-sxm,8,1,1024,0,0,0.012,"
                  "0.01201,0.00094,0.01203,0.0022\n",
                  &m, err, sizeof err),
        0);
    assert_int_equal(m.n, 1);
    assert_int_equal(m.row[0].phase, RL_MEAS_DECODE);
    assert_int_equal(m.row[0].tp, 8);
    assert_int_equal(m.row[0].batch, 1);
    assert_int_equal(m.row[0].context, 1024);
    assert_rel(m.row[0].measured, 0.012, 1e-12);
    assert_string_equal(m.row[0].hw, "h100-sxm");
    assert_string_equal(m.row[0].engine, "tester_device_bound");
    assert_non_null(strstr(m.ignored, "'file', 'hash', 'fitted_rows', "));
    assert_non_null(strstr(m.ignored, ", 'line', 'predicted_s', 'residual', 'cv_predicted_s', "
                                      "'cv_error'"));
    assert_null(strstr(m.ignored, "'measured_s'"));
    rl_measure_free(&m);
    char wide[2048] = "phase,tp,batch"; /* 254 more of ",cN", at most 5 bytes each */
    for (int i = 3; i < 257; i++)
        snprintf(wide + strlen(wide), sizeof wide - strlen(wide), ",c%d", i);
    strcat(wide, "\n");
    assert_int_equal(read_text(wide, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: more than 256 columns in the header"));
}

/* FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (the reference vectors of Fowler,
 * Noll and Vo's FNV page). */
static void fnv_reference(void **state)
{
    (void)state;
    assert_true(rl_fnv1a(RL_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(rl_fnv1a(RL_FNV_BASIS, "", 0) == 0xcbf29ce484222325ULL);
}

static void wrong_expectation(void **state)
{
    (void)state;
    assert_true(rl_fnv1a(RL_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8dULL);
}

static void harness_can_fail(void **state)
{
    (void)state;
    assert_test_fails(wrong_expectation);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(excerpt),
        cmocka_unit_test(reads_our_own_csv),
        cmocka_unit_test(csv_split_rules),
        cmocka_unit_test(csv_multiline_fields),
        cmocka_unit_test(repeats_share_a_configuration),
        cmocka_unit_test(layout_columns_read),
        cmocka_unit_test(validate_rows_read_back),
        cmocka_unit_test(errors_name_line_and_column),
        cmocka_unit_test(bom_and_range_edges),
        cmocka_unit_test(static_rate_one_formula),
        cmocka_unit_test(other_columns_not_read),
        cmocka_unit_test(fnv_reference),
        cmocka_unit_test(harness_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
