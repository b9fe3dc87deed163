/* Undo in the store (issue 14): the posts a seat takes back stay in the
 * log, marked with the undo post that took them back. */
#include <stdio.h>

#include "store_priv.h"

enum wp_err
wp_db_undo_tail(struct wp_conn *c, int64_t game, int seat, struct wp_undo_tail *out, int cap,
                int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*n = 0;
	wp_p_int(&p, game);
	wp_p_int(&p, seat);
	wp_p_int(&p, cap);
	if ((err = wp_sql_run(c, WP_STMT_UNDO_TAIL, &p, &r)) != WP_OK)
		return err;
	for (int i = 0; i < PQntuples(r) && i < cap; i++) {
		out[i] = (struct wp_undo_tail){
			.seq = (int)wp_col_int(r, i, 0), .seat = (int)wp_col_int(r, i, 1),
			.kind = wp_post_kind_parse(PQgetvalue(r, i, 2)), .undone = wp_col_bool(r, i, 3),
			.rolled = wp_col_bool(r, i, 4), .told = (unsigned)wp_col_int(r, i, 5)};
		*n = i + 1;
	}
	PQclear(r);
	return WP_OK;
}

enum wp_err
wp_db_posts_undo(struct wp_conn *c, int64_t game, const int *seqs, int n, int undo_seq,
                 int *marked)
{
	struct wp_params p = {0};
	char list[512];
	size_t len = 0;
	int64_t count = 0;
	enum wp_err err;

	len += (size_t)snprintf(list, sizeof(list), "{");
	for (int i = 0; i < n && len + 16 < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", i ? "," : "", seqs[i]);
	snprintf(list + len, sizeof(list) - len, "}");
	wp_p_int(&p, game);
	wp_p_text(&p, list);
	wp_p_int(&p, undo_seq);
	err = wp_sql_one(c, WP_STMT_POSTS_UNDO, &p, &count);
	*marked = (int)count;
	return err;
}
