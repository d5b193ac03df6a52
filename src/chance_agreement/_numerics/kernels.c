/* Compiled kernels with the bits of their numpy versions (chance_agreement._numerics.compiled).

   Each function repeats, operation by operation, a loop of numpy code: the same IEEE 754 double
   operations (+ - * / only, each rounded once) on the same operands in the same order, so every
   result is the same bits as the numpy code's on every machine. The build (setup.py) compiles
   this file with -O2 -ffp-contract=off -fno-fast-math (MSVC: /fp:precise): no fused multiply-add,
   no reassociation, no -march; there is no call into libm or BLAS. A platform that evaluates
   doubles in a wider format (x87 without SSE2) refuses to compile it, and the package then keeps
   its numpy code. Arrays come in through the buffer protocol (C-contiguous float64 or int64);
   the Python wrappers check their shapes, the functions here their lengths.

   group_values   document_bands._numpy_group_values: the band V[i, t] of a group's items
   count_tables   document_bands._numpy_count_table: the subset-excess counts c[j, x] of many jobs
   ordered_matmul exact_sum.ordered_matmul's dense orders (increasing k; numpy's pairwise sum)
   fold           exact_sum._fold: values added key by key in their order
   float_range, offset_codes, remap_codes, code_cells, pair_tables
                  rater_coefficients.ratings and krippendorff_alpha: labels coded and ratings
                  counted, in exact integer arithmetic (their numpy code's results in any order) */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <stdint.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "doubles are evaluated in a wider format here: the package keeps its numpy code"
#endif

/* Whether a buffer holds 8-byte float64 ('d') or int64 ('q') items. */
static int
of_kind(const Py_buffer *view, char kind)
{
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') {
        format++;
    }
    return view->itemsize == 8 && format[1] == '\0'
           && (kind == 'd' ? format[0] == 'd' : (format[0] == 'q' || format[0] == 'l'));
}

/* A C-contiguous buffer of `length` float64 ('d') or int64 ('q') items. */
static int
take_buffer(PyObject *object, Py_buffer *view, char kind, Py_ssize_t length, int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        return -1;
    }
    if (!of_kind(view, kind) || view->len != length * 8) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd C-contiguous %s items", name, length,
                     kind == 'd' ? "float64" : "int64");
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

static void
release_all(Py_buffer *views, int count)
{
    for (int k = 0; k < count; k++) {
        if (views[k].obj != NULL) {
            PyBuffer_Release(&views[k]);
        }
    }
}

/* take_buffer for each of `count` objects (the last one writable); releases them all on an error. */
static int
take_buffers(int count, PyObject **objects, Py_buffer *views, const char *kinds, const Py_ssize_t *lengths,
             const char *const *names)
{
    memset(views, 0, sizeof(Py_buffer) * (size_t)count);
    for (int k = 0; k < count; k++) {
        if (take_buffer(objects[k], &views[k], kinds[k], lengths[k], k == count - 1, names[k]) < 0) {
            release_all(views, k);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------ group_values */

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CHANCE_AGREEMENT_SCALAR)
/* Two doubles as one vector (gcc and clang): each lane takes the same IEEE operation as the scalar
   code, rounded once (no fused multiply-add under -ffp-contract=off), so the same bits; SSE2 or
   NEON does the two at once. Other compilers (MSVC), and a build with -DCHANCE_AGREEMENT_SCALAR
   (tests/test_compiled_kernels.py compares the two), take the scalar loops. */
typedef double pair __attribute__((vector_size(16)));
#define PAIRED 1
static inline pair load_pair(const double *from) { pair v; memcpy(&v, from, sizeof v); return v; }
static inline void store_pair(double *to, pair v) { memcpy(to, &v, sizeof v); }
#else
#define PAIRED 0
#endif

/* out[k] = out[k] + row[k] for k < length. */
static inline void
add_row(double *restrict out, const double *restrict row, Py_ssize_t length)
{
    Py_ssize_t k = 0;
#if PAIRED
    for (; k + 2 <= length; k += 2) {
        store_pair(out + k, load_pair(out + k) + load_pair(row + k));
    }
#endif
    for (; k < length; k++) {
        out[k] = out[k] + row[k];
    }
}

/* out[k] = out[k] + row[k] * factor for k < length. */
static inline void
add_scaled_row(double *restrict out, const double *restrict row, double factor, Py_ssize_t length)
{
    Py_ssize_t k = 0;
#if PAIRED
    pair factors = {factor, factor};
    for (; k + 2 <= length; k += 2) {
        store_pair(out + k, load_pair(out + k) + load_pair(row + k) * factors);
    }
#endif
    for (; k < length; k++) {
        double carried = row[k] * factor;
        out[k] = out[k] + carried;
    }
}

/* row[j] = row[j] + (power * scaled[j] + below[j]) for j < length. */
static inline void
horner_row(double *restrict row, const double *restrict below, const double *restrict scaled, double power,
           Py_ssize_t length)
{
    Py_ssize_t j = 0;
#if PAIRED
    pair powers = {power, power};
    for (; j + 2 <= length; j += 2) {
        pair now = powers * load_pair(scaled + j);
        now = now + load_pair(below + j);
        store_pair(row + j, load_pair(row + j) + now);
    }
#endif
    for (; j < length; j++) {
        double now = power * scaled[j];
        now = now + below[j];
        row[j] = row[j] + now;
    }
}

/* w_s = (w_s * (bases[s] - t)) * inverse for s < rows: the weights' step to position t. */
static inline void
weight_step(double *restrict weights, const double *restrict bases, double t, double inverse, Py_ssize_t rows)
{
    Py_ssize_t s = 0;
#if PAIRED
    pair ts = {t, t}, inverses = {inverse, inverse};
    for (; s + 2 <= rows; s += 2) {
        pair w = load_pair(weights + s) * (load_pair(bases + s) - ts);
        store_pair(weights + s, w * inverses);
    }
#endif
    for (; s < rows; s++) {
        double numerator = bases[s] - t;
        weights[s] = weights[s] * numerator;
        weights[s] = weights[s] * inverse;
    }
}

/* The Horner chains of one position (the numpy loop's blocks): rows p from the last down, so that
   running[p - 1] still holds position t - 1 when row p reads it; only the entries the band reads
   (p + j < rows, p <= t, j <= t). */
static void
horner_step(double *running, const double *restrict powers, const double *restrict scaled, Py_ssize_t rows,
            Py_ssize_t t)
{
    Py_ssize_t top = t < rows - 1 ? t : rows - 1;
    for (Py_ssize_t p = top; p >= 0; p--) {
        Py_ssize_t last = rows - 1 - p < t ? rows - 1 - p : t;
        if (p) {
            horner_row(running + p * rows, running + (p - 1) * rows + 1, scaled, powers[p], last + 1);
        }
        else {  /* row[j] + scaled[j] power: the same product, nothing below */
            add_scaled_row(running, scaled, powers[0], last + 1);
        }
    }
}

/* A count table c[j, x] as the caller made it: `height` rows of `width` entries. */
typedef struct {
    const double *counts;
    Py_ssize_t height, width;
} Table;

typedef struct {
    Py_ssize_t rows, columns, count, tables;
    const Table *sources;
    const double *factors, *weights, *up, *scales, *slots, *draws;
    const int64_t *source, *excess, *widths;
    double *values;
} Group;

/* V[i, t] of one item: its table without the segment left out, position by position. */
static int
item_values(const Group *g, Py_ssize_t i)
{
    Py_ssize_t rows = g->rows, columns = g->columns, count = g->count;
    Py_ssize_t width = (Py_ssize_t)g->widths[i], excess = (Py_ssize_t)g->excess[i];
    Py_ssize_t source = (Py_ssize_t)g->source[i];
    if (width < 0 || width > columns || source < 0 || source >= g->tables || width > g->sources[source].width) {
        PyErr_SetString(PyExc_ValueError, "group_values: a width or table index out of range");
        return -1;
    }
    double *table = PyMem_Malloc(sizeof(double) * (size_t)(2 * width * rows + rows * rows + 6 * rows + 1));
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    double *products = table + width * rows, *running = products + width * rows, *powers = running + rows * rows;
    double *weights = powers + rows, *factors = weights + rows, *scaled = factors + rows, *up = scaled + rows;
    double *bases = up + rows;
    const Table *counts = g->sources + source;
    for (Py_ssize_t j = 0; j < rows; j++) {  /* c[j, x] of the item's source table, row by row; zeros past it */
        if (j < counts->height) {
            memcpy(table + j * width, counts->counts + j * counts->width, sizeof(double) * (size_t)width);
        }
        else {
            memset(table + j * width, 0, sizeof(double) * (size_t)width);
        }
    }
    memset(running, 0, sizeof(double) * (size_t)(rows * rows));
    for (Py_ssize_t s = 0; s < rows; s++) {
        powers[s] = s ? 0.0 : 1.0;
        weights[s] = g->weights[s * count + i];
        factors[s] = g->factors[s * count + i];
        up[s] = s < rows - 1 ? g->up[s * count + i] : 1.0;
    }
    double scale = g->scales[i], slots = g->slots[i], draws = g->draws[i];
    double base = (slots - draws) + 1.0, top = slots + 1.0;
    for (Py_ssize_t s = 0; s < rows; s++) {
        bases[s] = base + (double)s;  /* N + 1 - K' + s */
    }
    int leaving = rows > 1 && excess < columns;
    for (Py_ssize_t t = 0; t < width; t++) {
        double *column = table + t;  /* c'_j(t) at column[j * width] */
        if (leaving && t >= excess) {  /* c'_j(t) = c_j(t) - c'_{j-1}(t - e), times 2^(k_{j-1} - k_j) */
            const double *back = column - excess - width;  /* c'_{j-1}(t - e) at back[j * width] */
            for (Py_ssize_t j = 1; j < rows; j++) {
                double carried = back[j * width] * up[j - 1];
                column[j * width] = column[j * width] - carried;
            }
        }
        if (t) {
            for (Py_ssize_t p = rows - 1; p >= 1; p--) {  /* B_p(t) = B_p(t - 1) + lambda B_{p-1}(t - 1) */
                double step = scale * powers[p - 1];
                powers[p] = powers[p] + step;
            }
            /* w_s(t) = w_s(t - 1) (N + 1 - K' + s - t) / (N + 1 - t) */
            weight_step(weights, bases, (double)t, 1.0 / (top - (double)t), rows);
        }
        for (Py_ssize_t j = 0; j < rows; j++) {
            scaled[j] = column[j * width] * factors[j];
        }
        horner_step(running, powers, scaled, rows, t);
        for (Py_ssize_t s = 0; s < rows; s++) {
            products[s * width + t] = weights[s] * running[s * rows];
        }
    }
    /* V(t) = sum_s w_s(t) Z_s(t) from 0.0, s in increasing order: all positions at once, each the
       same sum in the same order as one at a time */
    double *values = g->values + i * columns;
    memset(values, 0, sizeof(double) * (size_t)columns);
    for (Py_ssize_t s = 0; s < rows; s++) {
        add_row(values, products + s * width, width);
    }
    PyMem_Free(table);
    return 0;
}

/* The count tables of a group: each a C-contiguous two-dimensional float64 array; releases them all
   on an error. */
static int
take_tables(PyObject *sequence, Py_buffer **views, Table **tables, Py_ssize_t *size)
{
    PyObject *items = PySequence_Fast(sequence, "group_values: tables must be a sequence of arrays");
    if (items == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    *views = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_buffer));
    *tables = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Table));
    if (*views == NULL || *tables == NULL) {
        PyMem_Free(*views);
        PyMem_Free(*tables);
        Py_DECREF(items);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t u = 0; u < n; u++) {
        Py_buffer *view = *views + u;
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(items, u), view,
                               PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0) {
            view->obj = NULL;
        }
        else if (view->ndim != 2 || !of_kind(view, 'd')) {
            PyBuffer_Release(view);
            view->obj = NULL;
            PyErr_SetString(PyExc_ValueError, "group_values: a table is not a C-contiguous 2-d float64 array");
        }
        if (view->obj == NULL) {
            release_all(*views, (int)u);
            PyMem_Free(*views);
            PyMem_Free(*tables);
            Py_DECREF(items);
            return -1;
        }
        (*tables)[u].counts = view->buf;
        (*tables)[u].height = view->shape[0];
        (*tables)[u].width = view->shape[1];
    }
    Py_DECREF(items);
    *size = n;
    return 0;
}

static PyObject *
group_values(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t rows, columns, count;
    PyObject *sequence, *objects[10];
    if (!PyArg_ParseTuple(args, "nnnOOOOOOOOOOO", &rows, &columns, &count, &sequence, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4], &objects[5], &objects[6], &objects[7], &objects[8],
                          &objects[9])) {
        return NULL;
    }
    if (rows < 1 || columns < 0 || count < 0) {
        PyErr_SetString(PyExc_ValueError, "group_values: negative sizes");
        return NULL;
    }
    static const char *const names[10] = {"source", "excess", "widths", "factors", "weights", "up", "scales",
                                          "slots", "draws", "values"};
    const char kinds[10] = {'q', 'q', 'q', 'd', 'd', 'd', 'd', 'd', 'd', 'd'};
    Py_ssize_t lengths[10] = {count, count, count, rows * count, rows * count, (rows - 1) * count, count, count,
                              count, columns * count};
    Py_buffer views[10], *table_views;
    Table *tables;
    Py_ssize_t size;
    if (take_tables(sequence, &table_views, &tables, &size) < 0) {
        return NULL;
    }
    if (take_buffers(10, objects, views, kinds, lengths, names) < 0) {
        release_all(table_views, (int)size);
        PyMem_Free(table_views);
        PyMem_Free(tables);
        return NULL;
    }
    Group g = {rows, columns, count, size, tables, views[3].buf, views[4].buf, views[5].buf, views[6].buf,
               views[7].buf, views[8].buf, views[0].buf, views[1].buf, views[2].buf, views[9].buf};
    int failed = 0;
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        failed = item_values(&g, i) < 0;
    }
    release_all(views, 10);
    release_all(table_views, (int)size);
    PyMem_Free(table_views);
    PyMem_Free(tables);
    if (failed) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------ count_tables */

/* One table: c[j, x] += c[j - 1, x - e] (times up[j - 1]) for each excess in increasing order, over
   the part of the table that can be non-zero after it; rows from the last down, so that row j - 1
   still holds the counts before this segment (numpy reads the old values). Then each row's largest
   count into peaks[j]. Returns -1 (an exception set) on an excess below 1. */
static int
count_table(Py_ssize_t rows, Py_ssize_t columns, Py_ssize_t segments, const int64_t *excesses, const double *up,
            double *table, double *peaks)
{
    memset(table, 0, sizeof(double) * (size_t)(rows * columns));
    table[0] = 1.0;
    Py_ssize_t reach = 1;
    for (Py_ssize_t added = 1; added <= segments; added++) {
        Py_ssize_t excess = (Py_ssize_t)excesses[added - 1];
        if (excess >= columns || rows == 1) {
            break;
        }
        if (excess < 1) {
            PyErr_SetString(PyExc_ValueError, "count_tables: an excess below 1");
            return -1;
        }
        reach = reach + excess < columns ? reach + excess : columns;
        Py_ssize_t height = added + 1 < rows ? added + 1 : rows;
        for (Py_ssize_t j = height - 1; j >= 1; j--) {  /* c[j, x] += c[j - 1, x - e] up[j - 1], e <= x < reach */
            add_scaled_row(table + j * columns + excess, table + (j - 1) * columns, up[j - 1], reach - excess);
        }
    }
    for (Py_ssize_t j = 0; j < rows; j++) {
        double peak = 0.0;
        for (Py_ssize_t x = 0; x < columns; x++) {
            peak = table[j * columns + x] > peak ? table[j * columns + x] : peak;
        }
        peaks[j] = peak;
    }
    return 0;
}

/* The count tables of many jobs, one after the other: job k has shapes[2k] rows and shapes[2k + 1]
   columns, the excesses starts[k] .. starts[k + 1] - 1 and rows - 1 carry factors in `up`; its table
   and its rows' largest counts follow the previous job's in `tables` and `peaks`. */
static PyObject *
count_tables(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t jobs, segments, carries, cells, rows_total;
    PyObject *objects[6];
    if (!PyArg_ParseTuple(args, "nnnnnOOOOOO", &jobs, &segments, &carries, &cells, &rows_total, &objects[0],
                          &objects[1], &objects[2], &objects[3], &objects[4], &objects[5])) {
        return NULL;
    }
    if (jobs < 0 || segments < 0 || carries < 0 || cells < 0 || rows_total < 0) {
        PyErr_SetString(PyExc_ValueError, "count_tables: sizes out of range");
        return NULL;
    }
    static const char *const names[5] = {"shapes", "starts", "excesses", "up", "tables"};
    const char kinds[5] = {'q', 'q', 'q', 'd', 'd'};
    Py_ssize_t lengths[5] = {2 * jobs, jobs + 1, segments, carries, cells};
    Py_buffer views[6];
    if (take_buffers(5, objects, views, kinds, lengths, names) < 0) {
        return NULL;
    }
    if (take_buffer(objects[5], &views[5], 'd', rows_total, 1, "peaks") < 0) {
        release_all(views, 5);
        return NULL;
    }
    const int64_t *shapes = views[0].buf, *starts = views[1].buf, *excesses = views[2].buf;
    const double *up = views[3].buf;
    double *tables = views[4].buf, *peaks = views[5].buf;
    Py_ssize_t cell = 0, row = 0, carry = 0;
    int failed = 0;
    for (Py_ssize_t k = 0; k < jobs && !failed; k++) {
        Py_ssize_t rows = (Py_ssize_t)shapes[2 * k], columns = (Py_ssize_t)shapes[2 * k + 1];
        Py_ssize_t first = (Py_ssize_t)starts[k], stop = (Py_ssize_t)starts[k + 1];
        if (rows < 1 || columns < 1 || first < 0 || stop < first || stop > segments || cell + rows * columns > cells
            || row + rows > rows_total || carry + rows - 1 > carries) {
            PyErr_SetString(PyExc_ValueError, "count_tables: a job's shape or segments out of range");
            failed = 1;
            break;
        }
        failed = count_table(rows, columns, stop - first, excesses + first, up + carry, tables + cell, peaks + row) < 0;
        cell += rows * columns;
        row += rows;
        carry += rows - 1;
    }
    release_all(views, 6);
    if (failed) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------------------- ordered_matmul */

/* numpy's pairwise sum of n doubles (numpy/_core/src/umath/loops_utils.h.src, PW_BLOCKSIZE 128):
   in order below 8 terms, eight interleaved sums up to 128, else two halves cut at a multiple of 8. */
static double
pairwise_sum(const double *a, Py_ssize_t n)
{
    if (n < 8) {
        double res = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) {
            res = res + a[i];
        }
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (int k = 0; k < 8; k++) {
            r[k] = a[k];
        }
        Py_ssize_t i;
        for (i = 8; i < n - (n % 8); i += 8) {
            for (int k = 0; k < 8; k++) {
                r[k] = r[k] + a[i + k];
            }
        }
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) {
            res = res + a[i];
        }
        return res;
    }
    Py_ssize_t half = n / 2;
    half -= half % 8;
    return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
}

static int
sequential_products(const double *left, const double *right, double *out, Py_ssize_t m, Py_ssize_t inner,
                    Py_ssize_t columns)
{
    memset(out, 0, sizeof(double) * (size_t)(m * columns));
    int finite = 1;
    for (Py_ssize_t k = 0; k < m * inner && finite; k++) {
        finite = left[k] - left[k] == 0.0;  /* NaN for an infinity or a NaN */
    }
    Py_ssize_t nonzero = 0;
    for (Py_ssize_t k = 0; k < inner * columns; k++) {
        nonzero += right[k] != 0.0;
    }
    if (!finite || 2 * nonzero > inner * columns) {
        for (Py_ssize_t i = 0; i < m; i++) {
            double *row = out + i * columns;
            for (Py_ssize_t k = 0; k < inner; k++) {
                double factor = left[i * inner + k];
                const double *terms = right + k * columns;
                for (Py_ssize_t j = 0; j < columns; j++) {
                    double product = factor * terms[j];
                    row[j] = row[j] + product;
                }
            }
        }
        return 0;
    }
    Py_ssize_t *starts = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(inner + 1 + nonzero));
    if (starts == NULL) {
        return -1;
    }
    Py_ssize_t *where = starts + inner + 1, filled = 0;
    for (Py_ssize_t k = 0; k < inner; k++) {
        starts[k] = filled;
        for (Py_ssize_t j = 0; j < columns; j++) {
            if (right[k * columns + j] != 0.0) {
                where[filled++] = k * columns + j;
            }
        }
    }
    starts[inner] = filled;
    for (Py_ssize_t i = 0; i < m; i++) {
        double *row = out + i * columns;
        for (Py_ssize_t k = 0; k < inner; k++) {
            double factor = left[i * inner + k];
            for (Py_ssize_t e = starts[k]; e < starts[k + 1]; e++) {
                Py_ssize_t at = where[e];
                double product = factor * right[at];
                row[at - k * columns] = row[at - k * columns] + product;
            }
        }
    }
    PyMem_Free(starts);
    return 0;
}

static int
pairwise_products(const double *left, const double *right, double *out, Py_ssize_t m, Py_ssize_t inner,
                  Py_ssize_t columns)
{
    double *transposed = PyMem_Malloc(sizeof(double) * (size_t)(inner * columns + inner + 1));
    if (transposed == NULL) {
        return -1;
    }
    double *products = transposed + inner * columns;
    for (Py_ssize_t k = 0; k < inner; k++) {
        for (Py_ssize_t j = 0; j < columns; j++) {
            transposed[j * inner + k] = right[k * columns + j];
        }
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        for (Py_ssize_t j = 0; j < columns; j++) {
            for (Py_ssize_t k = 0; k < inner; k++) {
                products[k] = left[i * inner + k] * transposed[j * inner + k];
            }
            out[i * columns + j] = 0.0 + pairwise_sum(products, inner);
        }
    }
    PyMem_Free(transposed);
    return 0;
}

/* out[i, j] = sum_k left[i, k] right[k, j]: for inner <= columns the products added in increasing k
   from 0.0 (zero entries of right skipped when left is finite: adding l * 0 = +-0 to a sum that
   started at +0.0 changes no bit); else each as numpy.add.reduce of the products (0.0 + the
   pairwise sum). */
static PyObject *
ordered_matmul(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t m, inner, columns;
    PyObject *objects[3];
    if (!PyArg_ParseTuple(args, "nnnOOO", &m, &inner, &columns, &objects[0], &objects[1], &objects[2])) {
        return NULL;
    }
    if (m < 0 || inner < 0 || columns < 0) {
        PyErr_SetString(PyExc_ValueError, "ordered_matmul: negative sizes");
        return NULL;
    }
    static const char *const names[3] = {"left", "right", "out"};
    Py_ssize_t lengths[3] = {m * inner, inner * columns, m * columns};
    Py_buffer views[3];
    if (take_buffers(3, objects, views, "ddd", lengths, names) < 0) {
        return NULL;
    }
    const double *left = views[0].buf, *right = views[1].buf;
    double *out = views[2].buf;
    int failed = 0;
    if (inner <= columns) {
        failed = sequential_products(left, right, out, m, inner, columns);
    }
    else {
        failed = pairwise_products(left, right, out, m, inner, columns);
    }
    release_all(views, 3);
    if (failed) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- ratings: codes, cells, pairs */

/* The kernels below serve the several-rater coefficients (reliability.rater_coefficients): they
   code labels and count ratings, all in exact integer arithmetic or exact comparisons (no
   rounding), so their results are the numpy code's whatever the order. */

/* take_buffers after checking that no length is negative (else "<function>: negative sizes"). */
static int
take_sized(int count, PyObject **objects, Py_buffer *views, const char *kinds, const Py_ssize_t *lengths,
           const char *const *names, const char *function)
{
    for (int k = 0; k < count; k++) {
        if (lengths[k] < 0) {
            PyErr_Format(PyExc_ValueError, "%s: negative sizes", function);
            return -1;
        }
    }
    return take_buffers(count, objects, views, kinds, lengths, names);
}

/* stats = (low, high, present, integers) of the non-NaN values: the smallest and largest, how many,
   and 1.0 when each is a whole number (or infinite), as numpy's min, max and x == round(x). */
static PyObject *
float_range(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t n;
    PyObject *objects[2];
    if (!PyArg_ParseTuple(args, "nOO", &n, &objects[0], &objects[1])) {
        return NULL;
    }
    static const char *const names[2] = {"values", "stats"};
    Py_ssize_t lengths[2] = {n, 4};
    Py_buffer views[2];
    if (take_sized(2, objects, views, "dd", lengths, names, "float_range") < 0) {
        return NULL;
    }
    const double *values = views[0].buf;
    double *stats = views[1].buf;
    double low = 0.0, high = 0.0;
    Py_ssize_t present = 0;
    int integers = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        double v = values[i];
        if (v != v) {
            continue;
        }
        if (present == 0) {
            low = v;
            high = v;
        }
        else {
            low = v < low ? v : low;
            high = v > high ? v : high;
        }
        present++;
        double size = v < 0 ? -v : v;
        if (integers && size < 4503599627370496.0 && (double)(int64_t)v != v) {  /* below 2^52 */
            integers = 0;
        }
    }
    stats[0] = low;
    stats[1] = high;
    stats[2] = (double)present;
    stats[3] = integers ? 1.0 : 0.0;
    release_all(views, 2);
    Py_RETURN_NONE;
}

/* codes[i] = (int64)(values[i] - low) (-1 for NaN) and used[codes[i]] = 1: numpy's
   (given - low).astype(int64) and its bincount > 0. `integer` says the values are int64. */
static PyObject *
offset_codes(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t n, slots;
    int integer;
    double low;
    long long low_integer;
    PyObject *objects[3];
    if (!PyArg_ParseTuple(args, "nndLpOOO", &n, &slots, &low, &low_integer, &integer, &objects[0], &objects[1],
                          &objects[2])) {
        return NULL;
    }
    if (n < 0 || slots < 0) {
        PyErr_SetString(PyExc_ValueError, "offset_codes: negative sizes");
        return NULL;
    }
    static const char *const names[3] = {"values", "codes", "used"};
    Py_ssize_t lengths[3] = {n, n, slots};
    Py_buffer views[3];
    memset(views, 0, sizeof(views));
    if (take_buffer(objects[0], &views[0], integer ? 'q' : 'd', n, 0, names[0]) < 0
        || take_buffer(objects[1], &views[1], 'q', lengths[1], 1, names[1]) < 0
        || take_buffer(objects[2], &views[2], 'q', lengths[2], 1, names[2]) < 0) {
        release_all(views, 3);
        return NULL;
    }
    int64_t *codes = views[1].buf, *used = views[2].buf;
    int bad = 0;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        int64_t code;
        if (integer) {
            code = (int64_t)(((const int64_t *)views[0].buf)[i] - (int64_t)low_integer);
        }
        else {
            double v = ((const double *)views[0].buf)[i];
            if (v != v) {
                codes[i] = -1;
                continue;
            }
            code = (int64_t)(v - low);
        }
        if (code < 0 || code >= slots) {
            bad = 1;
            break;
        }
        codes[i] = code;
        used[code] = 1;
    }
    release_all(views, 3);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "offset_codes: a value outside [low, low + slots)");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* codes[i] = lookup[codes[i]] in place (negative codes stay -1). */
static PyObject *
remap_codes(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t n, size;
    PyObject *objects[2];
    if (!PyArg_ParseTuple(args, "nnOO", &n, &size, &objects[0], &objects[1])) {
        return NULL;
    }
    static const char *const names[2] = {"lookup", "codes"};
    Py_ssize_t lengths[2] = {size, n};
    Py_buffer views[2];
    if (take_sized(2, objects, views, "qq", lengths, names, "remap_codes") < 0) {
        return NULL;
    }
    const int64_t *lookup = views[0].buf;
    int64_t *codes = views[1].buf;
    int bad = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t code = codes[i];
        if (code < 0) {
            codes[i] = -1;
        }
        else if (code < size) {
            codes[i] = lookup[code];
        }
        else {
            bad = 1;
            break;
        }
    }
    release_all(views, 2);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "remap_codes: a code beyond the look-up table");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The distinct codes >= 0 of one item in increasing order (`categories`) and how often each
   occurs (`counts`); returns how many, or -1 for a code >= q. `tally` (q zeros, left zero) counts
   them; the distinct codes are then read off the tally in order when q is small against the
   raters, else sorted (insertion sort: an item holds few distinct codes). */
static Py_ssize_t
row_runs(const int64_t *row, Py_ssize_t r, int64_t q, int64_t *tally, int64_t *categories, int64_t *counts)
{
    Py_ssize_t distinct = 0;
    for (Py_ssize_t j = 0; j < r; j++) {
        int64_t code = row[j];
        if (code < 0) {
            continue;
        }
        if (code >= q) {
            for (Py_ssize_t k = 0; k < distinct; k++) {
                tally[categories[k]] = 0;
            }
            return -1;
        }
        if (tally[code]++ == 0) {
            categories[distinct++] = code;
        }
    }
    if (q <= 2 * (int64_t)r + 8) {
        distinct = 0;
        for (int64_t c = 0; c < q; c++) {
            if (tally[c]) {
                categories[distinct] = c;
                counts[distinct++] = tally[c];
                tally[c] = 0;
            }
        }
        return distinct;
    }
    for (Py_ssize_t j = 1; j < distinct; j++) {
        int64_t value = categories[j];
        Py_ssize_t k = j;
        while (k > 0 && categories[k - 1] > value) {
            categories[k] = categories[k - 1];
            k--;
        }
        categories[k] = value;
    }
    for (Py_ssize_t j = 0; j < distinct; j++) {
        counts[j] = tally[categories[j]];
        tally[categories[j]] = 0;
    }
    return distinct;
}

/* What a walk over the items does with each item's distinct codes and their counts. */
typedef void (*row_visit)(void *context, Py_ssize_t item, Py_ssize_t distinct, const int64_t *categories,
                          const int64_t *counts);

/* visit(context, i, ...) for each item i of an n x r code array, in order; 0, or -1 with an error
   set (no memory; a code >= q, named after `name`). */
static int
walk_rows(const int64_t *codes, Py_ssize_t n, Py_ssize_t r, Py_ssize_t q, row_visit visit, void *context,
          const char *name)
{
    int64_t *scratch = PyMem_Calloc((size_t)(q + 2 * r + 1), sizeof(int64_t));
    if (scratch == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t *tally = scratch, *categories = scratch + q, *times = scratch + q + r;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t distinct = row_runs(codes + i * r, r, q, tally, categories, times);
        if (distinct < 0) {
            PyMem_Free(scratch);
            PyErr_Format(PyExc_ValueError, "%s: a code >= the number of categories", name);
            return -1;
        }
        visit(context, i, distinct, categories, times);
    }
    PyMem_Free(scratch);
    return 0;
}

/* code_cells' output: the cells written so far. */
typedef struct {
    int64_t *items, *cells;
    double *counts;
    Py_ssize_t written;
} CellsOut;

static void
add_cells(void *context, Py_ssize_t item, Py_ssize_t distinct, const int64_t *categories, const int64_t *counts)
{
    CellsOut *out = context;
    for (Py_ssize_t j = 0; j < distinct; j++) {
        out->items[out->written] = item;
        out->cells[out->written] = categories[j];
        out->counts[out->written] = (double)counts[j];
        out->written++;
    }
}

/* The nonzero cells (item, category, count) of the items x categories count table of an
   items x raters code array (-1 missing), in row-major order: ratings.cells_of_codes. Returns how
   many cells it wrote. */
static PyObject *
code_cells(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t n, r, q;
    PyObject *objects[4];
    if (!PyArg_ParseTuple(args, "nnnOOOO", &n, &r, &q, &objects[0], &objects[1], &objects[2], &objects[3])) {
        return NULL;
    }
    if (n < 0 || r < 0 || q < 0) {
        PyErr_SetString(PyExc_ValueError, "code_cells: negative sizes");
        return NULL;
    }
    static const char *const names[4] = {"codes", "items", "cells", "counts"};
    const char kinds[4] = {'q', 'q', 'q', 'd'};
    Py_buffer views[4];
    memset(views, 0, sizeof(views));
    for (int k = 0; k < 4; k++) {
        if (take_buffer(objects[k], &views[k], kinds[k], n * r, k > 0, names[k]) < 0) {
            release_all(views, 4);
            return NULL;
        }
    }
    CellsOut out = {views[1].buf, views[2].buf, views[3].buf, 0};
    int failed = walk_rows(views[0].buf, n, r, q, add_cells, &out, "code_cells");
    release_all(views, 4);
    return failed ? NULL : PyLong_FromSsize_t(out.written);
}

/* pair_tables' output: the (r + 1) x q x q tables. */
typedef struct {
    int64_t *tables;
    Py_ssize_t q;
} PairsOut;

static void
add_pairs(void *context, Py_ssize_t item, Py_ssize_t distinct, const int64_t *categories, const int64_t *counts)
{
    (void)item;
    PairsOut *out = context;
    int64_t m = 0, q = out->q;
    for (Py_ssize_t j = 0; j < distinct; j++) {
        m += counts[j];
    }
    if (m < 2) {
        return;
    }
    int64_t *table = out->tables + m * q * q;
    for (Py_ssize_t j = 0; j < distinct; j++) {
        int64_t *line = table + categories[j] * q;
        for (Py_ssize_t k = 0; k < distinct; k++) {
            line[categories[k]] += counts[j] * counts[k] - (j == k ? counts[j] : 0);
        }
    }
}

/* tables[m, c, k] = the ordered pairs of values (c, k) from two different raters of the items
   with m >= 2 values (int64; m from 0 to r): krippendorff_alpha.coincidences_from_codes's
   integer tables, each item's from its category counts n_c as n_c n_k - [c == k] n_c. */
static PyObject *
pair_tables(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t n, r, q;
    PyObject *objects[2];
    if (!PyArg_ParseTuple(args, "nnnOO", &n, &r, &q, &objects[0], &objects[1])) {
        return NULL;
    }
    if (n < 0 || r < 0 || q < 0) {
        PyErr_SetString(PyExc_ValueError, "pair_tables: negative sizes");
        return NULL;
    }
    static const char *const names[2] = {"codes", "tables"};
    Py_ssize_t lengths[2] = {n * r, (r + 1) * q * q};
    Py_buffer views[2];
    if (take_sized(2, objects, views, "qq", lengths, names, "pair_tables") < 0) {
        return NULL;
    }
    PairsOut out = {views[1].buf, q};
    int failed = walk_rows(views[0].buf, n, r, q, add_pairs, &out, "pair_tables");
    release_all(views, 2);
    if (failed) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* out[keys[i]] += values[i] for i in order: exact_sum._fold (each key's values added one by one in
   their given order, starting from out's value). */
static PyObject *
fold(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t n, size;
    PyObject *objects[3];
    if (!PyArg_ParseTuple(args, "nnOOO", &n, &size, &objects[0], &objects[1], &objects[2])) {
        return NULL;
    }
    static const char *const names[3] = {"keys", "values", "out"};
    Py_ssize_t lengths[3] = {n, n, size};
    Py_buffer views[3];
    if (take_sized(3, objects, views, "qdd", lengths, names, "fold") < 0) {
        return NULL;
    }
    const int64_t *keys = views[0].buf;
    const double *values = views[1].buf;
    double *out = views[2].buf;
    int bad = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t key = keys[i];
        if (key < 0 || key >= size) {
            bad = 1;
            break;
        }
        out[key] = out[key] + values[i];
    }
    release_all(views, 3);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "fold: a key outside the output");
        return NULL;
    }
    Py_RETURN_NONE;
}


static PyMethodDef methods[] = {
    {"group_values", group_values, METH_VARARGS, "V[i, t] of a group's items (document_bands)."},
    {"count_tables", count_tables, METH_VARARGS, "The subset-excess counts c[j, x] of many jobs (document_bands)."},
    {"ordered_matmul", ordered_matmul, METH_VARARGS, "left @ right in exact_sum.ordered_matmul's order."},
    {"float_range", float_range, METH_VARARGS, "Smallest, largest, count and wholeness of the non-NaN values."},
    {"offset_codes", offset_codes, METH_VARARGS, "Values minus low as int64 codes, and the codes used."},
    {"remap_codes", remap_codes, METH_VARARGS, "Codes through a look-up table, in place."},
    {"code_cells", code_cells, METH_VARARGS, "The nonzero cells of the count table of coded ratings."},
    {"pair_tables", pair_tables, METH_VARARGS, "Ordered pairs of values per unit size (coincidences)."},
    {"fold", fold, METH_VARARGS, "out[keys[i]] += values[i] in order (exact_sum._fold)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "kernels", "Compiled kernels with the bits of their numpy versions.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit_kernels(void)
{
    return PyModule_Create(&module);
}
