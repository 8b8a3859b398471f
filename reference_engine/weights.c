/* weights.c — tensor list, seeded generator and .safetensors I/O of the
 * reference engine (see weights.h). */
#include "weights.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "error.h"
#include "report.h"

static int add(rl_tensor_info *out, int n, int cap, const char *name, long long r, long long c)
{
    if (n < cap) {
        snprintf(out[n].name, sizeof out[n].name, "%s", name);
        out[n].rows = r;
        out[n].cols = c;
    }
    return n + 1;
}

int rl_weights_list(const rl_model *m, rl_tensor_info *out, int cap, char *err, size_t errlen)
{
    if (m->abstract || m->experts > 0 || m->mlp != RL_MLP_SWIGLU)
        RL_FAIL("%s: the reference engine runs dense SwiGLU models with layers, d_model, ... given",
                m->origin);
    long long D = m->d_model, F = m->d_ff, qd = m->heads * m->head_dim,
              kd = m->kv_heads * m->head_dim;
    int n = add(out, 0, cap, "model.embed_tokens.weight", m->vocab, D);
    for (long long l = 0; l < m->layers; l++) {
        static const char *const part[] = {
            "input_layernorm", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
            "self_attn.o_proj", "post_attention_layernorm", "mlp.gate_proj", "mlp.up_proj",
            "mlp.down_proj"};
        const long long shape[9][2] = {{1, D},  {qd, D}, {kd, D}, {kd, D}, {D, qd},
                                       {1, D},  {F, D},  {F, D},  {D, F}};
        for (int i = 0; i < 9; i++) {
            char name[96];
            snprintf(name, sizeof name, "model.layers.%lld.%s.weight", l, part[i]);
            n = add(out, n, cap, name, shape[i][0], shape[i][1]);
        }
    }
    n = add(out, n, cap, "model.norm.weight", 1, D);
    if (!m->tied_embeddings)
        n = add(out, n, cap, "lm_head.weight", m->vocab, D);
    if (n > cap)
        RL_FAIL("%s: %d tensors exceed the list's capacity %d", m->origin, n, cap);
    return n;
}

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator. */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rl_weights_generate(const rl_tensor_info *t, int index, uint64_t seed, float *out)
{
    uint64_t s = seed * 1000003ull + (uint64_t)index;
    int norm = t->rows == 1, embed = strstr(t->name, "embed_tokens") != NULL;
    float a = embed ? 1.0f : norm ? 0.1f : (float)sqrt(3.0 / (double)t->cols);
    size_t n = (size_t)(t->rows * t->cols);
    for (size_t i = 0; i < n; i++) {
        float u = (float)((splitmix(&s) >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
        out[i] = (norm ? 1.0f : 0.0f) + a * u;
    }
}

struct rl_safetensors {
    char path[512];
    unsigned char *map;
    size_t size;
    size_t data_off; /* 8 + header length */
    cJSON *header;
};

void rl_safetensors_close(rl_safetensors *f)
{
    if (!f)
        return;
    if (f->map)
        munmap(f->map, f->size);
    cJSON_Delete(f->header);
    free(f);
}

static int elem_bytes(const char *dtype) { return !strcmp(dtype, "F32") ? 4 : !strcmp(dtype, "BF16") ? 2 : 0; }

/* Check one header entry; fills the byte range. */
static int check_entry(const rl_safetensors *f, const cJSON *e, char *err, size_t errlen)
{
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype");
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shape");
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
    if (!cJSON_IsString(dt) || !elem_bytes(dt->valuestring))
        RL_FAIL("%s: field '%s': dtype must be \"F32\" or \"BF16\"", f->path, e->string);
    if (!cJSON_IsArray(sh) || !cJSON_IsArray(off) || cJSON_GetArraySize(off) != 2)
        RL_FAIL("%s: field '%s': needs a shape array and data_offsets [begin, end]", f->path, e->string);
    double count = 1;
    const cJSON *d;
    cJSON_ArrayForEach(d, sh) {
        if (!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble != floor(d->valuedouble))
            RL_FAIL("%s: field '%s': shape entries must be integers >= 0", f->path, e->string);
        count *= d->valuedouble;
    }
    double b = cJSON_GetArrayItem(off, 0)->valuedouble, en = cJSON_GetArrayItem(off, 1)->valuedouble;
    if (!(b >= 0 && en >= b && en <= (double)(f->size - f->data_off)))
        RL_FAIL("%s: field '%s': data_offsets [%g, %g) outside the %zu data bytes", f->path, e->string,
                b, en, f->size - f->data_off);
    if (en - b != count * elem_bytes(dt->valuestring))
        RL_FAIL("%s: field '%s': data_offsets hold %g bytes, the shape needs %g", f->path, e->string,
                en - b, count * elem_bytes(dt->valuestring));
    return 0;
}

rl_safetensors *rl_safetensors_open(const char *path, char *err, size_t errlen)
{
    rl_safetensors *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    int fd = rl_open_input(path, err, errlen); /* regular files only: a FIFO would block */
    struct stat st;
    if (fd < 0)
        goto fail;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open", path);
        goto fail;
    }
    f->size = (size_t)st.st_size;
    if (f->size < 8) {
        snprintf(err, errlen, "%s: %zu bytes is too short for a safetensors file", path, f->size);
        goto fail;
    }
    f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (f->map == MAP_FAILED) {
        f->map = NULL;
        snprintf(err, errlen, "%s: cannot map", path);
        goto fail;
    }
    uint64_t hl = 0;
    for (int i = 7; i >= 0; i--)
        hl = hl << 8 | f->map[i];
    if (hl > f->size - 8 || hl > 100000000) {
        snprintf(err, errlen, "%s: header length %llu exceeds the file", path, (unsigned long long)hl);
        goto fail;
    }
    f->data_off = 8 + (size_t)hl;
    f->header = cJSON_ParseWithLength((const char *)f->map + 8, (size_t)hl);
    if (!cJSON_IsObject(f->header)) {
        snprintf(err, errlen, "%s: header is not a JSON object", path);
        goto fail;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, f->header) {
        if (strcmp(e->string, "__metadata__") != 0 && check_entry(f, e, err, errlen) != 0)
            goto fail;
    }
    close(fd);
    return f;
fail:
    if (fd >= 0)
        close(fd);
    rl_safetensors_close(f);
    return NULL;
}

int rl_safetensors_read(rl_safetensors *f, const rl_tensor_info *t, float *out, char *err,
                        size_t errlen)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(f->header, t->name);
    if (!e)
        RL_FAIL("%s: field '%s': tensor missing", f->path, t->name);
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shape");
    int nd = cJSON_GetArraySize(sh);
    double r = nd == 2 ? cJSON_GetArrayItem(sh, 0)->valuedouble : 1;
    double c = nd >= 1 ? cJSON_GetArrayItem(sh, nd - 1)->valuedouble : 0;
    if (nd < 1 || nd > 2 || r != (double)t->rows || c != (double)t->cols)
        RL_FAIL("%s: field '%s': shape does not match the model spec (%lld x %lld)", f->path, t->name,
                t->rows, t->cols);
    const char *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype")->valuestring;
    const unsigned char *p =
        f->map + f->data_off + (size_t)cJSON_GetArrayItem(cJSON_GetObjectItem(e, "data_offsets"), 0)->valuedouble;
    size_t n = (size_t)(t->rows * t->cols);
    if (elem_bytes(dt) == 4) {
        memcpy(out, p, n * 4);
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t u = (uint32_t)(p[2 * i] | p[2 * i + 1] << 8) << 16;
            memcpy(&out[i], &u, 4);
        }
    }
    return 0;
}

int rl_safetensors_write_seeded(const char *path, const rl_model *m, uint64_t seed, char *err,
                                size_t errlen)
{
    int cap = 16 + 9 * (int)m->layers;
    rl_tensor_info *t = malloc((size_t)cap * sizeof *t);
    if (!t)
        RL_FAIL("%s: out of memory", path);
    int n = rl_weights_list(m, t, cap, err, errlen), rc = -1;
    cJSON *h = cJSON_CreateObject();
    char *json = NULL, *buf = NULL;
    size_t data = 0;
    for (int i = 0; i < n; i++) {
        cJSON *e = cJSON_AddObjectToObject(h, t[i].name);
        cJSON_AddStringToObject(e, "dtype", "F32");
        cJSON *sh = cJSON_AddArrayToObject(e, "shape");
        if (t[i].rows > 1 || strstr(t[i].name, "norm") == NULL)
            cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)t[i].rows));
        cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)t[i].cols));
        size_t bytes = (size_t)(t[i].rows * t[i].cols) * 4;
        cJSON *off = cJSON_AddArrayToObject(e, "data_offsets");
        cJSON_AddItemToArray(off, cJSON_CreateNumber((double)data));
        cJSON_AddItemToArray(off, cJSON_CreateNumber((double)(data + bytes)));
        data += bytes;
    }
    if (n < 0 || !(json = cJSON_PrintUnformatted(h))) {
        if (n >= 0)
            snprintf(err, errlen, "%s: out of memory", path);
        goto done;
    }
    size_t jl = strlen(json), hl = (jl + 7) & ~(size_t)7, total = 8 + hl + data;
    if (!(buf = malloc(total))) {
        snprintf(err, errlen, "%s: out of memory for %zu bytes", path, total);
        goto done;
    }
    for (int i = 0; i < 8; i++)
        buf[i] = (char)((uint64_t)hl >> (8 * i));
    memcpy(buf + 8, json, jl);
    memset(buf + 8 + jl, ' ', hl - jl); /* pad so the data is 8-byte aligned */
    size_t at = 8 + hl;
    for (int i = 0; i < n; i++) {
        rl_weights_generate(&t[i], i, seed, (float *)(void *)(buf + at));
        at += (size_t)(t[i].rows * t[i].cols) * 4;
    }
    rc = rl_write_atomic(path, buf, total, err, errlen);
done:
    free(buf);
    free(json);
    cJSON_Delete(h);
    free(t);
    return rc;
}
