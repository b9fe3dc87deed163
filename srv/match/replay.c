/* Replays (replay.h): one step for all, and the audit of an exported
 * match. In the audit every post is applied again to the ruleset with the
 * dice derived from the revealed seed; each draw is compared with the one
 * the log recorded, the final state with the stored one, and what the
 * export declares (status, result, seats) with what the replay ends in:
 * an export edited anywhere is not verified. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "match.h"
#include "replay.h"

static void
mismatch_field(json_object *list, int seq, const char *field, const char *what)
{
	json_object *m = json_object_new_object();
	json_object_object_add(m, "seq", json_object_new_int(seq));
	json_object_object_add(m, "what", json_object_new_string(what));
	if (field)
		json_object_object_add(m, "field", json_object_new_string(field));
	json_object_array_add(list, m);
}

static void
mismatch(json_object *list, int seq, const char *what)
{
	mismatch_field(list, seq, NULL, what);
}

static const char *
text(json_object *o)
{
	return o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : "null";
}

/* One declared member against the replay's: a mismatch naming it. */
static void
compare(json_object *list, const char *field, json_object *said, json_object *replayed)
{
	char what[512];
	char *s = strdup(text(said));

	if (s && strcmp(s, text(replayed)) != 0) {
		snprintf(what, sizeof(what), "%s: the export says %.180s, the replay gives %.180s",
		         field, s, text(replayed));
		mismatch_field(list, 0, field, what);
	}
	free(s);
}

/* The declared result, member by member (winners, draw, reason, scores
 * and any member the replay does not give). */
static void
compare_result(json_object *list, json_object *said, json_object *replayed)
{
	char field[96];

	if (!said || !replayed || !json_object_is_type(said, json_type_object)) {
		compare(list, "result", said, replayed);
		return;
	}
	json_object_object_foreach(replayed, k, v) {
		json_object *w = NULL;
		json_object_object_get_ex(said, k, &w);
		snprintf(field, sizeof(field), "result.%.80s", k);
		compare(list, field, w, v);
	}
	json_object_object_foreach(said, k2, v2) {
		if (json_object_object_get_ex(replayed, k2, NULL))
			continue;
		snprintf(field, sizeof(field), "result.%.80s", k2);
		compare(list, field, v2, NULL);
	}
}

static const char *
str(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : "";
}

static int64_t
num(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : -1;
}

/* Compares the draws the replay made with those the log recorded. */
static int
same_rolls(const struct wr_rng *rng, json_object *recorded)
{
	size_t n = recorded ? json_object_array_length(recorded) : 0;

	if (n != rng->log_len)
		return 0;
	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(recorded, i);
		if (json_object_get_int64(json_object_array_get_idx(d, 0)) != rng->log[i].bound ||
		    json_object_get_int64(json_object_array_get_idx(d, 1)) != rng->log[i].value)
			return 0;
	}
	return 1;
}

/* One post onto *state (a start creates it) with the match's dice from
 * its first draw: turns, standing orders, resignations and claims change
 * the state, other kinds nothing. The draws are recorded in rng. */
static int
apply_post(const struct wr_ruleset *rs, json_object *options, int nseats,
           struct wr_hmac_stream *hs, void **state, enum wp_post_kind kind, int seat,
           json_object *content, int64_t from, struct wr_rng *rng, struct wr_events *ev)
{
	struct wr_error e;
	int bad;

	wr_rng_hmac(rng, hs, (uint64_t)from);
	wr_rng_record(rng);
	if (kind == WP_POST_START)
		return *state || rs->create(options, nseats, rng, state, &e) != 0 ? -1 : 0;
	if (kind != WP_POST_TURN && kind != WP_POST_ORDERS && kind != WP_POST_RESIGN &&
	    kind != WP_POST_CLAIM)
		return 0;
	if (!*state || seat < 0 || seat >= nseats)
		return -1;
	return wp_apply_post(rs, *state, seat, kind, content, rng, ev, &e, &bad) != 0 ? -1 : 0;
}

int
wp_undo_seqs(json_object *content, int *out, int cap)
{
	json_object *undo = NULL, *list = NULL;
	int n = 0;

	if (!json_object_is_type(content, json_type_array) || json_object_array_length(content) != 1 ||
	    !json_object_is_type(undo = json_object_array_get_idx(content, 0), json_type_object) ||
	    strcmp(str(undo, "type"), "undo") != 0 || !json_object_object_get_ex(undo, "posts", &list) ||
	    !json_object_is_type(list, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *v = json_object_array_get_idx(list, i);
		int64_t s = json_object_get_int64(v);
		if (!json_object_is_type(v, json_type_int) || s < 1 || s > INT32_MAX || n >= cap ||
		    (n > 0 && s <= out[n - 1]))
			return -1;
		out[n++] = (int)s;
	}
	return n > 0 ? n : -1;
}

/* ------------------------------------------------------------ undo */

/* Undo posts (issue 14): undone[seq] is the seq of the undo post that
 * took post seq back, 0 when none; first[seq] of an undo post, the first
 * post it names. A post named twice, or a list that is not one, is a
 * mismatch. One allocation: free(undone). */
static int *
undone_map(json_object *posts, int n, json_object *mism, int **first)
{
	int *undone = calloc(2 * ((size_t)n + 2), sizeof(int)), seqs[64];

	*first = undone ? undone + n + 2 : NULL;
	for (int i = 0; undone && i < n; i++) {
		json_object *p = json_object_array_get_idx(posts, (size_t)i);
		int seq = (int)num(p, "seq"), k;
		if (wp_post_kind_parse(str(p, "kind")) != WP_POST_UNDO)
			continue;
		k = wp_undo_seqs(json_object_object_get(p, "actions"), seqs, 64);
		if (k < 0 || seqs[k - 1] >= seq || seq > n)
			mismatch(mism, seq, "the undo post does not name earlier posts");
		if (k > 0 && seq >= 1 && seq <= n)
			(*first)[seq] = seqs[0];
		for (int j = 0; j < k && seqs[j] < seq && seqs[j] <= n; j++) {
			if (undone[seqs[j]])
				mismatch(mism, seq, "a post is taken back twice");
			undone[seqs[j]] = seq;
		}
	}
	return undone;
}

/* What an undo post took back: turns of its own seat that rolled no die,
 * and between the first of them and the undo nothing but those, posts
 * taken back before, and the seat's own undo posts. */
static void
check_undo(json_object *posts, const int *undone, int at, json_object *mism)
{
	json_object *u = json_object_array_get_idx(posts, (size_t)at - 1);
	int seat = (int)num(u, "seat"), first = at;

	for (int s = 1; s < at; s++)
		if (undone[s] == at && first == at)
			first = s;
	for (int s = first; s < at; s++) {
		json_object *p = json_object_array_get_idx(posts, (size_t)s - 1), *rolls = NULL;
		enum wp_post_kind kind = wp_post_kind_parse(str(p, "kind"));
		json_object_object_get_ex(p, "rolls", &rolls);
		if (undone[s] == at) {
			if (kind != WP_POST_TURN || num(p, "seat") != seat ||
			    (rolls && json_object_array_length(rolls) > 0))
				mismatch(mism, at, "the undo takes back a post it may not: another seat's, "
				                   "not a turn, or one that rolled dice");
		} else if (!(undone[s] && undone[s] < at) &&
		           !((kind == WP_POST_UNDO || kind == WP_POST_TAKEBACK) &&
		             num(p, "seat") == seat)) {
			mismatch(mism, at, "the undo reaches across another post");
		}
	}
}

/* One post of the export as a replay reads it. */
static struct wp_past_post
row_of(json_object *p)
{
	return (struct wp_past_post){
		.seat = (int)num(p, "seat"), .kind = wp_post_kind_parse(str(p, "kind")),
		.actions = json_object_object_get(p, "actions"), .draws_from = num(p, "draws_from")};
}

/* The state at undo post `at`: every post before it but those taken back
 * by then, replayed onto `state` (posts before `from`, as replayed). */
static void *
rebuild(struct wp_replay *r, json_object *posts, const int *undone, void *state, int from,
        int at)
{
	for (int s = from; s < at; s++) {
		struct wp_past_post p = row_of(json_object_array_get_idx(posts, (size_t)s - 1));
		struct wr_rng rng = {0};
		struct wr_events ev = {0};
		int rc = 0;
		if (!(undone[s] && undone[s] <= at))
			rc = apply_post(r->rs, r->options, r->nseats, &r->hs, &state, p.kind, p.seat,
			                p.actions, p.draws_from, &rng, &ev);
		wr_events_free(&ev);
		wr_rng_record_free(&rng);
		if (rc != 0)
			break;
	}
	return state;
}

/* One pass (issue 26): the state before each post an undo takes back is
 * kept as the replay meets it, and an undo goes on from the first it
 * names, unless an undo between names a post before that one (an export
 * no server writes): then from the start. */
static void
undo_to(struct wp_replay *r, json_object *posts, const int *undone, const int *first,
        void **before, int at)
{
	int f = first[at], from = 1;
	void *state = NULL;

	for (int u = f; f >= 1 && u < at; u++)
		if (first[u] && first[u] < f)
			f = 0;
	if (f >= 1 && before[f]) {
		state = wr_clone(r->rs, before[f]);
		from = f;
	}
	if (r->now.state)
		r->rs->free(r->now.state);
	r->now.state = rebuild(r, posts, undone, state, from, at);
	for (int s = 1; s < at; s++)
		if (undone[s] == at && before[s]) {
			r->rs->free(before[s]);
			before[s] = NULL;
		}
}

/* The replay against the export, post by post, in one pass: numbering,
 * draws, undo marks, rolls. The state before each post taken back is kept
 * in before[seq] until its undo. */
static void
replay_posts(struct wp_replay *r, json_object *posts, json_object *mism,
             json_object *rolls_out, int *nposts, int *nrolls)
{
	int n = posts ? (int)json_object_array_length(posts) : 0, *first;
	int *undone = undone_map(posts, n, mism, &first);
	void **before = calloc((size_t)n + 2, sizeof(*before));
	uint64_t next_draw = 0;

	for (int i = 0; undone && before && i < n; i++) {
		json_object *p = json_object_array_get_idx(posts, (size_t)i), *rec = NULL;
		int seq = (int)num(p, "seq"), ok = seq == i + 1;
		struct wp_past_post row = row_of(p);
		json_object *by = json_object_object_get(p, "undone_by");

		(*nposts)++;
		if (!ok)
			mismatch_field(mism, seq < 0 ? 0 : seq, "seq",
			               "seq: the posts are not numbered 1, 2, 3, ...");
		json_object_object_get_ex(p, "rolls", &rec);
		if (row.draws_from != (int64_t)next_draw)
			mismatch(mism, seq, "the post's first draw does not follow the previous post");
		if (ok && (by ? json_object_get_int(by) : 0) != undone[seq])
			mismatch_field(mism, seq, "undone_by",
			               "undone_by: not the undo post that takes this one back");
		if (ok && undone[seq] && r->now.state)
			before[seq] = wr_clone(r->rs, r->now.state);
		row.draws_from = (int64_t)next_draw;
		if (wp_replay_step(r, &row) != 0) {
			mismatch(mism, seq, row.kind == WP_POST_START
			                    ? "the start does not replay"
			                    : "the post does not replay: an action is refused");
		} else if (row.kind == WP_POST_UNDO && ok) {
			/* Taken back: the state is every post before but those
			 * (issue 14); no die was rolled in what is taken back. */
			check_undo(posts, undone, seq, mism);
			undo_to(r, posts, undone, first, before, seq);
		}
		if (!same_rolls(&r->rng, rec))
			mismatch(mism, seq, "the dice differ from the recorded rolls");
		json_object *o = json_object_new_object();
		json_object_object_add(o, "seq", json_object_new_int(seq));
		json_object_object_add(o, "dice", wp_rolls_json(&r->rng));
		json_object_array_add(rolls_out, o);
		*nrolls += (int)r->rng.log_len;
		next_draw = r->rng.count;
	}
	for (int s = 0; before && s < n + 2; s++)
		if (before[s])
			r->rs->free(before[s]);
	free(before);
	free(undone);
}

json_object *
wp_verify(json_object *doc)
{
	json_object *report = json_object_new_object(), *mism = json_object_new_array();
	json_object *posts, *seeds, *rolls_out = json_object_new_array(), *v, *options = NULL;
	const struct wr_ruleset *rs = wr_ruleset_find(str(doc, "ruleset"));
	unsigned char seed[32], commit[32], check[32];
	unsigned char material[4 * (WP_CLIENT_SEED_MAX + 1)];
	struct wp_seat seatv[WR_MAX_SEATS];
	struct wp_replay r;
	struct wp_past end = {0};
	int nposts = 0, nrolls = 0, commitment_ok = 0, state_ok = 0;
	int nseats = (int)num(doc, "seats");

	if (strcmp(str(doc, "format"), WP_EXPORT_FORMAT) != 0)
		mismatch(mism, 0, "not a warpost-export-1 document");
	else if (!rs)
		mismatch(mism, 0, "this build has no such ruleset");
	else if (nseats < 1 || nseats > WR_MAX_SEATS)
		mismatch(mism, 0, "the seat count is not valid");
	else if (sodium_hex2bin(seed, 32, str(doc, "seed"), 64, NULL, NULL, NULL) != 0 ||
	         sodium_hex2bin(commit, 32, str(doc, "commitment"), 64, NULL, NULL, NULL) != 0)
		mismatch(mism, 0, "the seed or the commitment is missing");
	if (json_object_array_length(mism))
		goto done;
	crypto_hash_sha256(check, seed, 32);
	commitment_ok = memcmp(check, commit, 32) == 0;
	if (!commitment_ok)
		mismatch(mism, 0, "SHA-256 of the seed is not the published commitment");

	memset(seatv, 0, sizeof(seatv));
	if (!json_object_object_get_ex(doc, "client_seeds", &seeds) ||
	    !json_object_is_type(seeds, json_type_array) ||
	    (int)json_object_array_length(seeds) != nseats)
		mismatch_field(mism, 0, "client_seeds", "client_seeds: not one per seat");
	if (seeds && json_object_is_type(seeds, json_type_array))
		for (int i = 0; i < nseats && i < (int)json_object_array_length(seeds); i++)
			snprintf(seatv[i].client_seed, sizeof(seatv[i].client_seed), "%s",
			         json_object_get_string(json_object_array_get_idx(seeds, (size_t)i)));
	json_object_object_get_ex(doc, "options", &options);
	wp_replay_begin(&r, rs, options, nseats, seed, material,
	                wp_client_material(seatv, nseats, material, sizeof(material)));
	if (!json_object_object_get_ex(doc, "posts", &posts) ||
	    !json_object_is_type(posts, json_type_array))
		posts = NULL;
	replay_posts(&r, posts, mism, rolls_out, &nposts, &nrolls);
	/* How the replay ends; an abort before the start has no state. */
	wp_replay_end(&r, &end);
	if (end.state && json_object_object_get_ex(doc, "final_state", &v)) {
		void *stored = NULL;
		struct wr_error e = {0};
		char where[256] = "";
		if (rs->load(v, &stored, &e) != 0) {
			snprintf(where, sizeof(where), "%.64s (the stored state does not load: %.120s)",
			         e.field[0] ? e.field : "state", e.message);
		} else {
			char *a = wr_save_text(rs, end.state), *b = wr_save_text(rs, stored);
			state_ok = strcmp(a, b) == 0;
			if (!state_ok) {
				json_object *ja = rs->save(end.state), *jb = rs->save(stored);
				wp_json_first_difference(ja, jb, where, sizeof(where));
				json_object_put(ja);
				json_object_put(jb);
			}
			free(a);
			free(b);
			rs->free(stored);
		}
		if (!state_ok && where[0]) {
			char what[320];
			snprintf(what, sizeof(what),
			         "the replayed final state differs from the stored one at %s", where);
			char field[280];
			snprintf(field, sizeof(field), "final_state.%s", where);
			mismatch_field(mism, 0, field, what);
		} else if (!state_ok) {
			mismatch(mism, 0, "the replayed final state differs from the stored one");
		}
	} else if (end.state) {
		mismatch(mism, 0, "the export has no final state");
	} else {
		state_ok = 1; /* aborted before the start: nothing to compare */
	}

	/* What the export declares against what the replay ends in. */
	json_object *st = json_object_new_string(wp_status_str(end.status));
	compare(mism, "status", json_object_object_get(doc, "status"), st);
	json_object_put(st);
	compare_result(mism, json_object_object_get(doc, "result"), end.result);
	if (end.state)
		rs->free(end.state);
	json_object_put(end.result);
done:
	json_object_object_add(report, "verified",
	                       json_object_new_boolean(json_object_array_length(mism) == 0));
	json_object_object_add(report, "commitment_ok", json_object_new_boolean(commitment_ok));
	json_object_object_add(report, "state_ok", json_object_new_boolean(state_ok));
	json_object_object_add(report, "posts", json_object_new_int(nposts));
	json_object_object_add(report, "rolls_checked", json_object_new_int(nrolls));
	json_object_object_add(report, "mismatches", mism);
	json_object_object_add(report, "rolls", rolls_out);
	return report;
}

/* ------------------------------------------------------ the one step */

void
wp_replay_begin(struct wp_replay *r, const struct wr_ruleset *rs, json_object *options,
                int nseats, const unsigned char seed[32], const unsigned char *client,
                size_t client_len)
{
	memset(r, 0, sizeof(*r));
	r->rs = rs;
	r->options = options;
	r->nseats = nseats;
	memcpy(r->hs.seed, seed, 32);
	r->hs.client = (unsigned char *)client;
	r->hs.client_len = client_len;
	r->now.status = WP_STATUS_ACTIVE;
}

void
wp_replay_from(struct wp_replay *r, struct wp_past *take_start)
{
	if (r->now.state)
		r->rs->free(r->now.state);
	json_object_put(r->given);
	r->now = *take_start;
	/* The result of a match ended then, whoever gave it. */
	r->given = take_start->status != WP_STATUS_ACTIVE ? take_start->result : NULL;
	if (!r->given)
		json_object_put(take_start->result);
	r->now.result = NULL;
	r->aborted = take_start->status == WP_STATUS_ABORTED;
	memset(take_start, 0, sizeof(*take_start));
}

/* What the last step drew and told, let go before the next. */
static void
step_clear(struct wp_replay *r)
{
	wr_events_free(&r->ev);
	wr_rng_record_free(&r->rng);
	memset(&r->ev, 0, sizeof(r->ev));
	memset(&r->rng, 0, sizeof(r->rng));
	r->agreed = r->claimed = 0;
}

int
wp_replay_step(struct wp_replay *r, const struct wp_past_post *p)
{
	const struct wr_ruleset *rs = r->rs;
	unsigned all = (1u << r->nseats) - 1;

	step_clear(r);
	/* A post taken back never happened (issue 14); its undo post lets a
	 * draw offer lapse like a turn. */
	if (p->undone_by)
		return 0;
	if (apply_post(rs, r->options, r->nseats, &r->hs, &r->now.state, p->kind, p->seat,
	               p->actions, p->draws_from, &r->rng, &r->ev) != 0)
		return -1;
	r->claimed = p->kind == WP_POST_CLAIM;
	/* Draw offers as api/posts.c keeps them (do_draw). */
	unsigned offers = p->kind == WP_POST_ORDERS || p->kind == WP_POST_TAKEBACK ||
	                  p->kind == WP_POST_TAKEBACK_DECLINE
	                  ? r->now.draw_offers : 0;
	switch (p->kind) {
	case WP_POST_DRAW_OFFER:
	case WP_POST_DRAW_ACCEPT: {
		unsigned in = r->now.state && rs->seats_in ? rs->seats_in(r->now.state) & all : all;
		if (p->seat < 0 || p->seat >= r->nseats)
			return -1;
		offers = r->now.draw_offers | (1u << p->seat);
		if ((offers & in) == in) {
			offers = 0;
			r->agreed = 1;
			if (r->now.state && rs->agreed_end) {
				wp_agreed_end(rs, r->now.state, &r->ev);
			} else {
				json_object_put(r->given);
				r->given = wp_result_by("agreement", 1);
			}
		}
		break;
	}
	case WP_POST_ADJUDICATION:   /* api/tournament_play.c */
		json_object_put(r->given);
		r->given = wp_result_adjudicated(p->actions, r->nseats);
		if (!r->given)
			return -1;
		break;
	case WP_POST_ABORT:
		r->aborted = 1;
		json_object_put(r->given);
		r->given = wp_result_by("aborted", 0);
		break;
	default:
		break;
	}
	r->now.draw_offers = offers;
	return 0;
}

void
wp_replay_end(struct wp_replay *r, struct wp_past *out)
{
	const struct wr_ruleset *rs = r->rs;

	*out = r->now;
	out->result = r->given;
	r->given = NULL;
	if (!out->result && out->state) {
		struct wr_result res = {0};
		rs->result(out->state, &res);
		out->result = wp_result_json(&res, r->nseats);
	}
	if (out->result && r->claimed && !r->aborted) /* won on time (api/clock.c) */
		json_object_object_add(out->result, "reason", json_object_new_string("time"));
	out->status = r->aborted ? WP_STATUS_ABORTED
	              : out->result ? WP_STATUS_OVER : WP_STATUS_ACTIVE;
	out->awaiting = out->result || !out->state ? 0 : rs->to_act(out->state);
	memset(&r->now, 0, sizeof(r->now));
	step_clear(r);
}

void
wp_replay_free(struct wp_replay *r)
{
	if (r->now.state)
		r->rs->free(r->now.state);
	json_object_put(r->given);
	json_object_put(r->now.result);
	memset(&r->now, 0, sizeof(r->now));
	r->given = NULL;
	step_clear(r);
}
