/* The observer's scatter: a game writer's byte sinks into a float32 observation, and the legal
 * actions' ids into an int8 mask.
 *
 * A writer (``write_tensor(state, seat, ones, pairs)``) writes into two byte sinks of librt
 * (mypyc's runtime library: ``librt.strings.BytesWriter``) the slot of every float that is 1.0
 * to `ones` (nearly all of them: one-hots, cards held), as a 16-bit little-endian int,
 * and the slot then the value (a little-endian double) of every other nonzero float to `pairs`.
 * scatter(ones, pairs, out, scratch) writes into `out` (float32, C-contiguous, writable) the
 * vector whose slot i holds the values `pairs` gives it, in their order, then 1.0 for each time
 * `ones` names it, summed in double and rounded once to float32: what NumPy's bincount of the
 * same gives (courtly.rl.tensors.summed), without its float64 array of the whole size. `scratch`
 * (float64, the same length) holds the sums while they are made; it must be all zeros on entry
 * and is all zeros again on return, so a call costs the number of slots named, plus clearing
 * `out`. The sinks are read in place, through the layout librt exports to compiled modules
 * (checked at import against the version these sources were built with: librt's own check for
 * compiled modules), and left empty,
 * read or not, for the writer's next call.
 *
 * Bad input (sinks that are not librt's, a partial slot or pair, a slot outside `out`, buffers
 * of the wrong type or length) raises and leaves `out` and `scratch` as they were.
 *
 * mark(actions, mask) writes into `mask` (int8, C-contiguous, writable) 1 at the `id` of every
 * action of the sequence and 0 elsewhere; an id that is not an int in [0, len(mask)) raises and
 * leaves `mask` as it was.
 *
 * Filler(writer, out) binds a game's writer to one float32 array, checked once and held (its
 * buffer stays exported and a weak reference to it is kept, so neither Python nor NumPy
 * resizes it under the filler); filler(state, seat) then empties its own two sinks, calls the
 * writer with them and scatters them into `out` as scatter() does, in one call from Python:
 * OpenSpiel's observation buffer, filled at every step. A writer that raises, or bad sinks,
 * leave `out` as it was. The caller checks the state and the seat before (the writer trusts
 * them).
 *
 * SetFrom(fill, game, players, checked) is the set_from(state, player) of OpenSpiel's observer
 * (courtly.rl.openspiel's CourtlyObserver), called at every step of a learner, with no Python
 * frame: when the Courtly state inside the OpenSpiel state (`state.position.state`) is a state of
 * `game` past its start (a non-empty `history` list) and the player an int in [0, players), it
 * fills that state's observation with `fill` (a Filler's own steps, with no call between; any
 * other fill is called). Anything else goes to checked(state, player), with the caller's own
 * arguments: the observer's Python path, its checks and its errors.
 *
 * Built by tools/compile.py beside the mypyc modules, with mypyc's runtime headers on the include
 * path; courtly.rl.tensors falls back to NumPy where it is not built (or is stale, or
 * COURTLY_PURE=1, or librt's layout is not the one built against).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

/* mypyc's runtime: BytesWriterObject, and librt's functions by the table that
 * import_librt_strings (librt_strings_api.c, built in with this file) fills. */
#include "librt_strings_api.h"

static PyTypeObject *sink_type; /* librt.strings.BytesWriter, set at import */

static PyObject *id_name; /* "id", interned once */

static int
get_vector(PyObject *object, Py_buffer *view, const char *name, char format, Py_ssize_t itemsize)
{
    if (PyObject_GetBuffer(object, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be a writable C-contiguous array", name);
        return -1;
    }
    const char *found = view->format == NULL ? "B" : view->format;
    if (found[0] == '<' || found[0] == '=' || found[0] == '@') {
        found++;
    }
    if (view->ndim != 1 || view->itemsize != itemsize || found[0] != format || found[1] != '\0') {
        PyErr_Format(PyExc_ValueError, "%s must be a one-dimensional array of dtype %s", name,
                     format == 'f' ? "float32" : format == 'd' ? "float64" : "int8");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Bytes of a sink, read little-endian whatever the machine's order: a slot (a signed 16-bit
 * int, librt's write that mypyc compiles inline), a value (a double). On a little-endian
 * machine each is one load. */
static inline Py_ssize_t
slot_at(const unsigned char *bytes)
{
#if PY_LITTLE_ENDIAN
    int16_t slot;
    memcpy(&slot, bytes, sizeof slot);
    return slot;
#else
    return (Py_ssize_t)(int16_t)(uint16_t)(bytes[0] | bytes[1] << 8);
#endif
}

static inline double
double_at(const unsigned char *bytes)
{
    uint64_t bits = 0;
#if PY_LITTLE_ENDIAN
    memcpy(&bits, bytes, sizeof bits);
#else
    for (int i = 7; i >= 0; i--) {
        bits = bits << 8 | bytes[i];
    }
#endif
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

#define SLOT_BYTES 2
#define PAIR_BYTES (SLOT_BYTES + 8)

/* 0 if `ones` and `pairs` are librt sinks, -1 with a TypeError set if not. */
static int
check_sinks(PyObject *ones, PyObject *pairs)
{
    if (Py_IS_TYPE(ones, sink_type) && Py_IS_TYPE(pairs, sink_type)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "ones and pairs must be librt.strings.BytesWriter sinks, not %s "
                 "and %s", Py_TYPE(ones)->tp_name, Py_TYPE(pairs)->tp_name);
    return -1;
}

/* Empty a sink, keeping its buffer for the next call. */
static inline void
emptied(PyObject *sink)
{
    ((BytesWriterObject *)sink)->len = 0;
}

/* A writer's sinks into out[0..size): each slot's sum of the values of `pairs` naming it, in
 * their order, then 1.0 for each time `ones` names it, in double, rounded once to float32; zeros
 * elsewhere. `sums` is all zeros on entry and again on return. Bad sinks raise before `out` is
 * touched; the sinks are left empty either way. */
static int
scatter_sinks(PyObject *ones, PyObject *pairs, float *out, double *sums, Py_ssize_t size)
{
    BytesWriterObject *one_sink = (BytesWriterObject *)ones;
    BytesWriterObject *pair_sink = (BytesWriterObject *)pairs;
    const unsigned char *one_bytes = (const unsigned char *)one_sink->buf;
    const unsigned char *pair_bytes = (const unsigned char *)pair_sink->buf;
    Py_ssize_t named = one_sink->len, paired = pair_sink->len;
    int result = -1;
    Py_ssize_t i = 0;
    Py_ssize_t few[256];
    Py_ssize_t *at = NULL;
    if (named % SLOT_BYTES != 0 || paired % PAIR_BYTES != 0) {
        PyErr_Format(PyExc_ValueError,
                     "the sinks hold %zd and %zd bytes: not whole slots and (slot, value) pairs",
                     named, paired);
        goto done;
    }
    named /= SLOT_BYTES;
    paired /= PAIR_BYTES;
    Py_ssize_t count = paired + named;
    /* Each slot read once, into `at` (on the stack for the few slots a writer names), and
     * checked before anything is added: a bad one leaves `sums` untouched. */
    at = count <= 256 ? few : PyMem_Malloc((size_t)count * sizeof(Py_ssize_t));
    if (at == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < paired; i++) {
        at[i] = slot_at(pair_bytes + i * PAIR_BYTES);
    }
    for (; i < count; i++) {
        at[i] = slot_at(one_bytes + (i - paired) * SLOT_BYTES);
    }
    for (i = 0; i < count; i++) {
        if ((size_t)at[i] >= (size_t)size) { /* or below 0 */
            PyErr_Format(PyExc_ValueError, "slot %zd is outside the observation (%zd floats)",
                         at[i], size);
            goto done;
        }
    }
    for (i = 0; i < paired; i++) {
        sums[at[i]] += double_at(pair_bytes + i * PAIR_BYTES + SLOT_BYTES);
    }
    for (; i < count; i++) {
        sums[at[i]] += 1.0;
    }
    memset(out, 0, (size_t)size * sizeof(float));
    for (i = 0; i < count; i++) {
        out[at[i]] = (float)sums[at[i]];
    }
    for (i = 0; i < count; i++) {
        sums[at[i]] = 0.0;
    }
    result = 0;
done:
    if (at != NULL && at != few) {
        PyMem_Free(at);
    }
    emptied(ones);
    emptied(pairs);
    return result;
}

static PyObject *
scatter(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "scatter(ones, pairs, out, scratch) takes 4 arguments");
        return NULL;
    }
    PyObject *ones = args[0];
    PyObject *pairs = args[1];
    if (check_sinks(ones, pairs) < 0) {
        return NULL;
    }
    Py_buffer out_view, scratch_view;
    if (get_vector(args[2], &out_view, "out", 'f', sizeof(float)) < 0) {
        emptied(ones);
        emptied(pairs);
        return NULL;
    }
    if (get_vector(args[3], &scratch_view, "scratch", 'd', sizeof(double)) < 0) {
        PyBuffer_Release(&out_view);
        emptied(ones);
        emptied(pairs);
        return NULL;
    }
    Py_ssize_t size = out_view.shape[0];
    int failed = -1;
    if (scratch_view.shape[0] != size) {
        PyErr_Format(PyExc_ValueError, "scratch has %zd floats, out %zd", scratch_view.shape[0],
                     size);
        emptied(ones);
        emptied(pairs);
    }
    else {
        failed = scatter_sinks(ones, pairs, (float *)out_view.buf, (double *)scratch_view.buf,
                               size);
    }
    PyBuffer_Release(&scratch_view);
    PyBuffer_Release(&out_view);
    if (failed < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The id of `action`, checked to be an int in [0, size); -1 with an exception set if not. */
static Py_ssize_t
action_id(PyObject *action, Py_ssize_t size)
{
    PyObject *id_object = PyObject_GetAttr(action, id_name);
    if (id_object == NULL) {
        return -1;
    }
    Py_ssize_t id = -1;
    if (!PyLong_Check(id_object) || PyBool_Check(id_object)) {
        PyErr_Format(PyExc_TypeError, "action %R has id %R, not an int", action, id_object);
    }
    else {
        id = PyLong_AsSsize_t(id_object);
        if (id == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
        if (id < 0 || id >= size) {
            PyErr_Format(PyExc_ValueError, "action %R has id %R, outside the mask (%zd ids)",
                         action, id_object, size);
            id = -1;
        }
    }
    Py_DECREF(id_object);
    return id;
}

static PyObject *
mark(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mark(actions, mask) takes 2 arguments");
        return NULL;
    }
    PyObject *actions = PySequence_Fast(args[0], "actions must be a sequence");
    if (actions == NULL) {
        return NULL;
    }
    Py_buffer mask_view;
    if (get_vector(args[1], &mask_view, "mask", 'b', 1) < 0) {
        Py_DECREF(actions);
        return NULL;
    }
    Py_ssize_t size = mask_view.shape[0];
    char *mask = (char *)mask_view.buf;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(actions);
    PyObject **items = PySequence_Fast_ITEMS(actions);
    /* Every id read and checked before the mask is touched. */
    Py_ssize_t few[64];
    Py_ssize_t *ids = count <= 64 ? few : PyMem_Malloc((size_t)count * sizeof(Py_ssize_t));
    PyObject *result = NULL;
    if (ids == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        ids[i] = action_id(items[i], size);
        if (ids[i] < 0) {
            goto done;
        }
    }
    memset(mask, 0, (size_t)size);
    for (Py_ssize_t i = 0; i < count; i++) {
        mask[ids[i]] = 1;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    if (ids != few) {
        PyMem_Free(ids);
    }
    PyBuffer_Release(&mask_view);
    Py_DECREF(actions);
    return result;
}

/* Filler: a writer bound to one float32 array (see the top of the file). */
typedef struct {
    PyObject_HEAD
    PyObject *writer;
    PyObject *out; /* the array, its buffer held in `view` while the filler lives */
    PyObject *out_ref; /* a weak reference to it: see filler_new */
    PyObject *ones; /* the writer's sinks, empty between calls */
    PyObject *pairs;
    Py_buffer view;
    double *sums; /* `size` zeros between calls */
    Py_ssize_t size;
    vectorcallfunc vectorcall;
} Filler;

static PyObject *filler_call(PyObject *self, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames);

static PyObject *
filler_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *writer, *out;
    static char *names[] = {"writer", "out", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:Filler", names, &writer, &out)) {
        return NULL;
    }
    if (!PyCallable_Check(writer)) {
        PyErr_Format(PyExc_TypeError, "writer must be callable, not %R", writer);
        return NULL;
    }
    Filler *self = (Filler *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = filler_call;
    if (get_vector(out, &self->view, "out", 'f', sizeof(float)) < 0) {
        self->view.obj = NULL; /* nothing held: the dealloc releases nothing */
        Py_DECREF(self);
        return NULL;
    }
    self->size = self->view.shape[0];
    self->sums = PyMem_Calloc(self->size > 0 ? (size_t)self->size : 1, sizeof(double));
    self->ones = LibRTStrings_BytesWriter_internal();
    self->pairs = LibRTStrings_BytesWriter_internal();
    if (self->sums == NULL || self->ones == NULL || self->pairs == NULL) {
        if (self->sums == NULL) {
            PyErr_NoMemory();
        }
        Py_DECREF(self);
        return NULL;
    }
    Py_INCREF(writer);
    self->writer = writer;
    Py_INCREF(out);
    self->out = out;
    /* A held buffer stops Python's own arrays from resizing, but not NumPy's resize with
     * refcheck=False; a weak reference to the array stops that too (NumPy refuses to resize an
     * array something refers to weakly). An object without weak references keeps the buffer's
     * guard alone. */
    self->out_ref = PyWeakref_NewRef(out, NULL);
    if (self->out_ref == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
            Py_DECREF(self);
            return NULL;
        }
        PyErr_Clear();
    }
    return (PyObject *)self;
}

static int
filler_traverse(Filler *self, visitproc visit, void *arg)
{
    Py_VISIT(self->writer);
    Py_VISIT(self->out);
    Py_VISIT(self->ones);
    Py_VISIT(self->pairs);
    return 0;
}

static int
filler_clear(Filler *self)
{
    Py_CLEAR(self->writer);
    Py_CLEAR(self->ones);
    Py_CLEAR(self->pairs);
    return 0;
}

static void
filler_dealloc(Filler *self)
{
    PyObject_GC_UnTrack(self);
    filler_clear(self);
    if (self->view.obj != NULL) {
        PyBuffer_Release(&self->view);
    }
    Py_CLEAR(self->out_ref);
    Py_CLEAR(self->out);
    PyMem_Free(self->sums);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The fill itself: the writer's sinks of the seat's observation in `state`, scattered into
 * the filler's array; -1 with an exception set (and the array as it was) if not. The sinks are
 * empty before the writer's call and after the scatter, whatever either did. */
static int
fill(Filler *self, PyObject *state, PyObject *seat)
{
    if (self->writer == NULL) {
        PyErr_SetString(PyExc_ValueError, "the filler was cleared");
        return -1;
    }
    emptied(self->ones);
    emptied(self->pairs);
    PyObject *call[4] = {state, seat, self->ones, self->pairs};
    PyObject *written = PyObject_Vectorcall(self->writer, call, 4, NULL);
    if (written == NULL) {
        emptied(self->ones);
        emptied(self->pairs);
        return -1;
    }
    Py_DECREF(written);
    return scatter_sinks(self->ones, self->pairs, (float *)self->view.buf, self->sums,
                         self->size);
}

static PyObject *
filler_call(PyObject *object, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 2 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "filler(state, seat) takes 2 positional arguments");
        return NULL;
    }
    if (fill((Filler *)object, args[0], args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
filler_sums_clear(Filler *self, void *closure)
{
    for (Py_ssize_t i = 0; i < self->size; i++) {
        if (self->sums[i] != 0.0) {
            Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
}

static PyMemberDef filler_members[] = {
    {"writer", T_OBJECT, offsetof(Filler, writer), READONLY, "the game's writer"},
    {"out", T_OBJECT, offsetof(Filler, out), READONLY, "the array filled"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Filler, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef filler_getset[] = {
    {"sums_clear", (getter)filler_sums_clear, NULL, "whether the float64 sums are all zeros",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject FillerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "courtly.rl._scatter.Filler",
    .tp_basicsize = sizeof(Filler),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Filler(writer, out): filler(state, seat) writes the seat's observation into out "
              "by the game's writer (the state and the seat checked by the caller).",
    .tp_new = filler_new,
    .tp_dealloc = (destructor)filler_dealloc,
    .tp_traverse = (traverseproc)filler_traverse,
    .tp_clear = (inquiry)filler_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Filler, vectorcall),
    .tp_members = filler_members,
    .tp_getset = filler_getset,
};

/* SetFrom: OpenSpiel's set_from of one observer (see the top of the file). */
typedef struct {
    PyObject_HEAD
    PyObject *fill; /* a Filler (called in C), or any fill(state, seat) */
    PyObject *game;
    PyObject *checked;
    Py_ssize_t players;
    vectorcallfunc vectorcall;
} SetFrom;

static PyObject *position_name, *state_name, *history_name, *game_name; /* interned once */

static PyObject *set_from_call(PyObject *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames);

static PyObject *
set_from_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *fill, *game, *checked;
    Py_ssize_t players;
    static char *names[] = {"fill", "game", "players", "checked", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOnO:SetFrom", names, &fill, &game, &players,
                                     &checked)) {
        return NULL;
    }
    if (!PyCallable_Check(fill) || !PyCallable_Check(checked)) {
        PyErr_SetString(PyExc_TypeError, "fill and checked must be callable");
        return NULL;
    }
    SetFrom *self = (SetFrom *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = set_from_call;
    Py_INCREF(fill);
    self->fill = fill;
    Py_INCREF(game);
    self->game = game;
    Py_INCREF(checked);
    self->checked = checked;
    self->players = players;
    return (PyObject *)self;
}

static int
set_from_traverse(SetFrom *self, visitproc visit, void *arg)
{
    Py_VISIT(self->fill);
    Py_VISIT(self->game);
    Py_VISIT(self->checked);
    return 0;
}

static int
set_from_clear(SetFrom *self)
{
    Py_CLEAR(self->fill);
    Py_CLEAR(self->game);
    Py_CLEAR(self->checked);
    return 0;
}

static void
set_from_dealloc(SetFrom *self)
{
    PyObject_GC_UnTrack(self);
    set_from_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The Courtly state `spiel_state.position.state` if it is a state of `game` with a history
 * (a new reference), else NULL with no exception set: the checked path takes the call. */
static PyObject *
courtly_state_of(PyObject *spiel_state, PyObject *game)
{
    PyObject *position = PyObject_GetAttr(spiel_state, position_name);
    if (position == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *state = PyObject_GetAttr(position, state_name);
    Py_DECREF(position);
    if (state == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *state_game = PyObject_GetAttr(state, game_name);
    int taken = state_game == game;
    Py_XDECREF(state_game);
    if (taken) {
        PyObject *history = PyObject_GetAttr(state, history_name);
        taken = history != NULL && PyList_CheckExact(history) && PyList_GET_SIZE(history) > 0;
        Py_XDECREF(history);
    }
    if (!taken) {
        PyErr_Clear();
        Py_DECREF(state);
        return NULL;
    }
    return state;
}

static PyObject *
set_from_call(PyObject *object, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SetFrom *self = (SetFrom *)object;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (self->fill == NULL) {
        PyErr_SetString(PyExc_ValueError, "the set_from was cleared");
        return NULL;
    }
    if (nargs == 2 && kwnames == NULL && PyLong_CheckExact(args[1])) {
        Py_ssize_t seat = PyLong_AsSsize_t(args[1]);
        if (seat == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
        else if (seat >= 0 && seat < self->players) {
            PyObject *state = courtly_state_of(args[0], self->game);
            if (state != NULL) {
                if (Py_IS_TYPE(self->fill, &FillerType)) {
                    int filled = fill((Filler *)self->fill, state, args[1]);
                    Py_DECREF(state);
                    if (filled < 0) {
                        return NULL;
                    }
                    Py_RETURN_NONE;
                }
                PyObject *call[2] = {state, args[1]};
                PyObject *filled = PyObject_Vectorcall(self->fill, call, 2, NULL);
                Py_DECREF(state);
                return filled;
            }
        }
    }
    return PyObject_Vectorcall(self->checked, args, nargsf, kwnames);
}

static PyMemberDef set_from_members[] = {
    {"fill", T_OBJECT, offsetof(SetFrom, fill), READONLY, "the fill of the observation"},
    {"checked", T_OBJECT, offsetof(SetFrom, checked), READONLY, "the checked path"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(SetFrom, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject SetFromType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "courtly.rl._scatter.SetFrom",
    .tp_basicsize = sizeof(SetFrom),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "SetFrom(fill, game, players, checked): OpenSpiel's set_from(state, player) by the "
              "filler for a state of game past its start and a seat in range(players); "
              "checked(state, player) for the rest.",
    .tp_new = set_from_new,
    .tp_dealloc = (destructor)set_from_dealloc,
    .tp_traverse = (traverseproc)set_from_traverse,
    .tp_clear = (inquiry)set_from_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(SetFrom, vectorcall),
    .tp_members = set_from_members,
};


static PyMethodDef methods[] = {
    {"scatter", (PyCFunction)(void (*)(void))scatter, METH_FASTCALL,
     "scatter(ones, pairs, out, scratch): the sums at their slots of the values of the sink pairs "
     "(slot, value records) then of 1.0 for each slot of the sink ones, in float64, written into "
     "the float32 array out (zero elsewhere), the sinks left empty; scratch is a float64 array of "
     "out's length, all zeros before and after."},
    {"mark", (PyCFunction)(void (*)(void))mark, METH_FASTCALL,
     "mark(actions, mask): 1 at the id of every action, 0 elsewhere, in the int8 array mask."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "_scatter",
    "The observer's scatter of a writer's byte sinks into a float32 observation.", -1,
    methods,
};

PyMODINIT_FUNC
PyInit__scatter(void)
{
    id_name = PyUnicode_InternFromString("id");
    position_name = PyUnicode_InternFromString("position");
    state_name = PyUnicode_InternFromString("state");
    history_name = PyUnicode_InternFromString("history");
    game_name = PyUnicode_InternFromString("game");
    if (id_name == NULL || position_name == NULL || state_name == NULL || history_name == NULL ||
        game_name == NULL) {
        return NULL;
    }
    if (PyType_Ready(&FillerType) < 0 || PyType_Ready(&SetFromType) < 0) {
        return NULL;
    }
    /* librt's sinks, read in place: only where librt lays them out as the headers built against
     * do (the check mypyc's own modules make), else an ImportError, and the observer reads
     * them back with NumPy instead. */
    if (import_librt_strings() < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) { /* its version check */
            PyObject *type, *value, *traceback;
            PyErr_Fetch(&type, &value, &traceback);
            PyErr_Format(PyExc_ImportError, "courtly.rl._scatter cannot read librt's sinks: %S",
                         value);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(traceback);
        }
        return NULL;
    }
    sink_type = LibRTStrings_BytesWriter_type_internal();
    PyObject *module = PyModule_Create(&module_definition);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&FillerType);
    if (PyModule_AddObject(module, "Filler", (PyObject *)&FillerType) < 0) {
        Py_DECREF(&FillerType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&SetFromType);
    if (PyModule_AddObject(module, "SetFrom", (PyObject *)&SetFromType) < 0) {
        Py_DECREF(&SetFromType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
