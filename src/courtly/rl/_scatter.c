/* The observer's scatter: a game writer's (slot, value) lists into a float32 observation, and
 * the legal actions' ids into an int8 mask.
 *
 * scatter(slots, values, out, scratch) writes into `out` (float32, C-contiguous, writable) the
 * vector whose slot i holds the sum of the values named at slot i, summed in double in the
 * order given and rounded once to float32: what
 * `np.bincount(slots, weights=values, minlength=len(out)).astype(np.float32)` gives, without
 * its float64 array of the whole size. `scratch` (float64, the same length) holds the sums
 * while they are made; it must be all zeros on entry and is all zeros again on return, so a
 * call costs the number of slots named, plus clearing `out`.
 *
 * Bad input (not two lists of one length, a slot that is not an int in [0, len(out)), a value
 * that is not a number, buffers of the wrong type or length) raises and leaves `out` and
 * `scratch` as they were.
 *
 * mark(actions, mask) writes into `mask` (int8, C-contiguous, writable) 1 at the `id` of every
 * action of the sequence and 0 elsewhere; an id that is not an int in [0, len(mask)) raises and
 * leaves `mask` as it was.
 *
 * Built by tools/compile.py beside the mypyc modules; courtly.rl.tensors falls back to bincount
 * where it is not built (or is stale, or COURTLY_PURE=1).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

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

static PyObject *
scatter(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "scatter(slots, values, out, scratch) takes 4 arguments");
        return NULL;
    }
    PyObject *slots = args[0];
    PyObject *values = args[1];
    if (!PyList_Check(slots) || !PyList_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "slots and values must be lists");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(slots);
    if (PyList_GET_SIZE(values) != count) {
        PyErr_Format(PyExc_ValueError, "%zd slots but %zd values", count,
                     PyList_GET_SIZE(values));
        return NULL;
    }
    Py_buffer out_view, scratch_view;
    if (get_vector(args[2], &out_view, "out", 'f', sizeof(float)) < 0) {
        return NULL;
    }
    if (get_vector(args[3], &scratch_view, "scratch", 'd', sizeof(double)) < 0) {
        PyBuffer_Release(&out_view);
        return NULL;
    }
    Py_ssize_t size = out_view.shape[0];
    float *out = (float *)out_view.buf;
    double *sums = (double *)scratch_view.buf;
    Py_ssize_t i = 0;
    if (scratch_view.shape[0] != size) {
        PyErr_Format(PyExc_ValueError, "scratch has %zd floats, out %zd", scratch_view.shape[0],
                     size);
        goto failed;
    }
    /* The sums, in the scratch alone: a bad item undoes them and leaves `out` untouched. The
     * slots are read again below (a list cannot change meanwhile: no Python code runs). */
    for (; i < count; i++) {
        PyObject *slot_object = PyList_GET_ITEM(slots, i);
        PyObject *value_object = PyList_GET_ITEM(values, i);
        if (!PyLong_Check(slot_object) || PyBool_Check(slot_object)) {
            PyErr_Format(PyExc_TypeError, "slot %zd is %R, not an int", i, slot_object);
            goto undo;
        }
        Py_ssize_t slot = PyLong_AsSsize_t(slot_object);
        if (slot == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            slot = -1;
        }
        if (slot < 0 || slot >= size) {
            PyErr_Format(PyExc_ValueError, "slot %R is outside the observation (%zd floats)",
                         slot_object, size);
            goto undo;
        }
        double value;
        if (PyFloat_CheckExact(value_object)) {
            value = PyFloat_AS_DOUBLE(value_object);
        }
        else if ((PyFloat_Check(value_object) || PyLong_Check(value_object)) &&
                 !PyBool_Check(value_object)) {
            value = PyFloat_AsDouble(value_object);
            if (value == -1.0 && PyErr_Occurred()) {
                goto undo;
            }
        }
        else {
            PyErr_Format(PyExc_TypeError, "value %zd is %R, not a number", i, value_object);
            goto undo;
        }
        sums[slot] += value;
    }
    memset(out, 0, (size_t)size * sizeof(float));
    for (i = 0; i < count; i++) {
        Py_ssize_t slot = PyLong_AsSsize_t(PyList_GET_ITEM(slots, i));
        out[slot] = (float)sums[slot];
    }
    for (i = 0; i < count; i++) {
        sums[PyLong_AsSsize_t(PyList_GET_ITEM(slots, i))] = 0.0;
    }
    PyBuffer_Release(&scratch_view);
    PyBuffer_Release(&out_view);
    Py_RETURN_NONE;

undo:
    /* Items 0 .. i-1 were checked and added: clear what they touched. */
    for (Py_ssize_t j = 0; j < i; j++) {
        sums[PyLong_AsSsize_t(PyList_GET_ITEM(slots, j))] = 0.0;
    }
failed:
    PyBuffer_Release(&scratch_view);
    PyBuffer_Release(&out_view);
    return NULL;
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

static PyMethodDef methods[] = {
    {"scatter", (PyCFunction)(void (*)(void))scatter, METH_FASTCALL,
     "scatter(slots, values, out, scratch): the sums of the values at their slots, in float64, "
     "written into the float32 array out (zero elsewhere); scratch is a float64 array of out's "
     "length, all zeros before and after."},
    {"mark", (PyCFunction)(void (*)(void))mark, METH_FASTCALL,
     "mark(actions, mask): 1 at the id of every action, 0 elsewhere, in the int8 array mask."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "_scatter",
    "The observer's scatter of a writer's (slot, value) lists into a float32 observation.", -1,
    methods,
};

PyMODINIT_FUNC
PyInit__scatter(void)
{
    id_name = PyUnicode_InternFromString("id");
    if (id_name == NULL) {
        return NULL;
    }
    return PyModule_Create(&module_definition);
}
