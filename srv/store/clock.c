/* What the clocks derive from: the posts' times with who was awaited
 * after each and whose turn waited for a reaction (RULINGS.md G8), and the
 * players' vacations (match/clock.h). */
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

void
wp_col_tc(const PGresult *r, int row, int col, struct wp_tc *tc)
{
	json_object *o = wp_col_json(r, row, col);
	char why[128];
	int unp;

	if (wp_tc_parse(o, tc, why, sizeof(why), &unp) != 0) {
		wp_log("a stored time control does not read: %s", why);
		memset(tc, 0, sizeof(*tc));
	}
	json_object_put(o);
}

void
wp_clock_input_free(struct wp_clock_input *in)
{
	free(in->marks);
	for (int s = 0; s < WR_MAX_SEATS; s++)
		free(in->vac[s]);
	memset(in, 0, sizeof(*in));
}

int
wp_clock_input_copy(struct wp_clock_input *dst, const struct wp_clock_input *src, int extra)
{
	int bad;

	memset(dst, 0, sizeof(*dst));
	dst->folded = src->folded;
	dst->fold = src->fold;
	dst->marks = malloc(((size_t)src->nmarks + (size_t)extra + 1) * sizeof(*dst->marks));
	bad = !dst->marks;
	if (!bad && src->nmarks)
		memcpy(dst->marks, src->marks, (size_t)src->nmarks * sizeof(*dst->marks));
	dst->nmarks = src->nmarks;
	for (int s = 0; !bad && s < WR_MAX_SEATS; s++) {
		dst->vac[s] = malloc(((size_t)src->nvac[s] + 1) * sizeof(*dst->vac[s]));
		bad = !dst->vac[s];
		if (!bad && src->nvac[s])
			memcpy(dst->vac[s], src->vac[s], (size_t)src->nvac[s] * sizeof(*dst->vac[s]));
		dst->nvac[s] = src->nvac[s];
	}
	if (bad)
		wp_clock_input_free(dst);
	return bad ? -1 : 0;
}

/* How many comma-separated items s holds. */
static int
items(const char *s)
{
	int n = *s ? 1 : 0;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

int
wp_clock_input_text(const char *fold, const char *marks, const char *vacations, int nseats,
                    struct wp_clock_input *in)
{
	int n = items(marks), nv = items(vacations), bad;
	char *end;

	memset(in, 0, sizeof(*in));
	in->folded = fold && *fold;
	in->marks = calloc((size_t)n + 1, sizeof(*in->marks));
	bad = !in->marks || (in->folded && wp_clock_fold_parse(fold, nseats, &in->fold) != 0);
	for (const char *p = marks; !bad && in->nmarks < n; p = end + 1) {
		int64_t at = strtoll(p, &end, 10), stored = *end == ':' ? strtoll(end + 1, &end, 10) : -1;
		bad = stored < 0 || (*end != ',' && *end != '\0');
		if (!bad)
			wp_clock_mark_read(&in->marks[in->nmarks++], at, stored);
	}
	for (int s = 0; !bad && s < WR_MAX_SEATS; s++)
		bad = !(in->vac[s] = calloc((size_t)nv + 1, sizeof(*in->vac[s])));
	for (const char *p = vacations; !bad && nv-- > 0; p = end + 1) {
		long long seat = strtoll(p, &end, 10);
		struct wp_interval v = {-1, -1};
		if (*end == ':')
			v.from = strtoll(end + 1, &end, 10);
		if (*end == ':')
			v.to = strtoll(end + 1, &end, 10);
		bad = seat < 0 || seat >= WR_MAX_SEATS || v.to < 0 || (*end != ',' && *end != '\0');
		if (!bad)
			in->vac[seat][in->nvac[seat]++] = v;
	}
	if (bad)
		wp_clock_input_free(in);
	return bad ? -1 : 0;
}

void
wp_clock_input_fold(const struct wp_tc *tc, const struct wp_clock_input *in, int nseats,
                    struct wp_clock_fold *f)
{
	const struct wp_interval *vac[WR_MAX_SEATS];

	for (int s = 0; s < WR_MAX_SEATS; s++)
		vac[s] = in->vac[s];
	if (in->folded)
		*f = in->fold;
	else
		wp_clock_fold_start(tc, nseats, f);
	for (int k = 0; k < in->nmarks; k++)
		wp_clock_fold_step(tc, vac, in->nvac, nseats, f, &in->marks[k]);
}

enum wp_err
wp_db_clock_load(struct wp_conn *c, int64_t game, int seq, int nseats, struct wp_clock_input *in)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;
	int bad;

	memset(in, 0, sizeof(*in));
	wp_p_int(&p, game);
	wp_p_int(&p, seq);
	if ((err = wp_sql_run(c, WP_STMT_CLOCK_INPUT, &p, &r)) != WP_OK)
		return err;
	bad = PQntuples(r) != 1 ||
	      wp_clock_input_text(PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2),
	                          nseats, in) != 0;
	PQclear(r);
	return bad ? WP_ERR_INTERNAL : WP_OK;
}

enum wp_err
wp_db_vacations(struct wp_conn *c, int64_t player, struct wp_interval **out, int *n,
                int64_t *created)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, player);
	if ((err = wp_sql_run(c, WP_STMT_VACATIONS_OF, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 0) {
		PQclear(r);
		return WP_ERR_NOT_FOUND;
	}
	*created = wp_col_int(r, 0, 2);
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		if (wp_col_null(r, i, 0))
			continue; /* the player has none */
		(*out)[*n].from = wp_col_int(r, i, 0);
		(*out)[*n].to = wp_col_int(r, i, 1);
		(*n)++;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

/* Only the player's matches in play are forgotten and told of, each at
 * its new version (wp_db_notify), not every match held. */
enum wp_err
wp_db_vacation_insert(struct wp_conn *c, int64_t player, int64_t from, int64_t to)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_int(&p, player);
	wp_p_int(&p, from);
	wp_p_int(&p, to);
	if ((err = wp_sql_run(c, WP_STMT_VACATION_INSERT, &p, &r)) != WP_OK)
		return err;
	for (int i = 0; err == WP_OK && i < PQntuples(r); i++)
		err = wp_db_notify(c, wp_col_int(r, i, 0), wp_col_int(r, i, 1));
	PQclear(r);
	return err;
}
