/* The rule-case tables' helpers: rows, scripted d100 faces, posting typed
 * actions and reading their events, building positions (shared by
 * test_oc_table.c and test_oc_rulings.c). */
#ifndef OC_TABLE_H
#define OC_TABLE_H

#define OC_UNUSED __attribute__((unused))
#include <stdarg.h>

#include "oc_test.h"

#define TEXT "001_acae27716807a788.txt, "
static const char *row;
static int rows;

#define ROW(name) do { row = (name); rows++; } while (0)
#define OK(cond, fmt, ...) CHECK(cond, "[%s] " fmt, row, ##__VA_ARGS__)

static struct wr_rng rng;
static struct wr_script script;
static unsigned faces[64];

/* Scripted d100 faces for the next apply. */
static OC_UNUSED void
dice(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		faces[i] = (unsigned)va_arg(ap, int);
	va_end(ap);
	script = (struct wr_script){.faces = faces, .n = (size_t)n};
	wr_rng_script(&rng, &script);
}

static struct wr_error err;
static struct wr_list ev;

static OC_UNUSED int
run(struct oc_state *st, int seat, struct oc_action a)
{
	wr_list_free(&ev);
	wr_list_init(&ev, sizeof(struct oc_event));
	memset(&err, 0, sizeof(err));
	return do_act(st, seat, a, &rng, &ev, &err);
}

static OC_UNUSED int
refused(struct oc_state *st, int seat, struct oc_action a, const char *code)
{
	char *before = save_str(st);
	int rc = run(st, seat, a);
	char *after = save_str(st);
	int same = strcmp(before, after) == 0;
	free(before);
	free(after);
	if (rc == 0)
		return 0;
	if (code && strcmp(err.code, code) != 0) {
		fprintf(stderr, "  [%s] refused with %s (%s), expected %s\n", row, err.code,
		        err.message, code);
		return 0;
	}
	return same;
}

static OC_UNUSED int
has_event(enum oc_ev type)
{
	for (size_t i = 0; i < ev.len; i++)
		if (((struct oc_event *)wr_list_at(&ev, i))->type == type)
			return 1;
	return 0;
}

static OC_UNUSED const struct oc_event *
event(enum oc_ev type)
{
	for (size_t i = 0; i < ev.len; i++)
		if (((struct oc_event *)wr_list_at(&ev, i))->type == type)
			return wr_list_at(&ev, i);
	return NULL;
}

static OC_UNUSED struct oc_action
activate(const char *at)
{
	struct oc_action a = act(OC_A_ACTIVATE);
	a.at = sq(at);
	return a;
}

static OC_UNUSED struct oc_action
unit_act(enum oc_act t, const char *from)
{
	struct oc_action a = act(t);
	a.at = sq(from);
	return a;
}

static OC_UNUSED struct oc_action
move(const char *from, const char *to)
{
	struct oc_action a = unit_act(OC_A_MOVE, from);
	a.to = sq(to);
	return a;
}

static OC_UNUSED struct oc_action
attack(const char *from, const char *target, int slot)
{
	struct oc_action a = unit_act(OC_A_ATTACK, from);
	a.target = sq(target);
	a.slot = slot;
	return a;
}

static OC_UNUSED struct oc_action
staff(const char *from, int slot, const char *target, const char *to)
{
	struct oc_action a = unit_act(OC_A_STAFF, from);
	a.slot = slot;
	a.target = target ? sq(target) : -1;
	a.to = to ? sq(to) : -1;
	return a;
}

static OC_UNUSED struct oc_action
recruit(const char *name, const char *cls, const char *i0, const char *i1, const char *i2)
{
	struct oc_action a = act(OC_A_RECRUIT);
	const char *it[3] = {i0, i1, i2};
	a.nrec = 1;
	snprintf(a.rec[0].name, OC_NAME, "%s", name);
	a.rec[0].cls = oc_class_find(cls);
	for (int k = 0; k < 3; k++)
		if (it[k])
			a.rec[0].items[a.rec[0].nitems++] = oc_item_find(it[k]);
	return a;
}

static OC_UNUSED void
set_tile(struct oc_state *st, const char *at, int t)
{
	st->terrain[sq(at)] = st->base[sq(at)] = (unsigned char)t;
}

static OC_UNUSED struct oc_state *
duel(const char *acls, const char *aw, const char *asq, const char *dcls, const char *dw,
     const char *dsq)
{
	struct oc_state *st = make(NULL);
	put_unit(st, 0, acls, asq, aw, NULL, NULL);
	put_unit(st, 1, dcls, dsq, dw, NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);   /* keeps seat 1 alive */
	battle(st, 0);
	run(st, 0, activate(asq));
	return st;
}

#endif
