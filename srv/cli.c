/* warpost: offline tools. `warpost ratings --recompute` replays every rated
 * result in the database (store/ratings.c). `warpost verify FILE` replays an exported match
 * (GET /api/games/{id}/export) from its revealed seed and says whether
 * every roll and the final state check out. Exit 0 when verified, 1 when
 * not, 2 on bad usage or an unreadable file. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <sodium.h>

#include "ratings.h"
#include "replay.h"

static int
usage(void)
{
	fprintf(stderr, "usage: warpost verify FILE\n"
	                "Replays an exported match and checks its dice and final state.\n"
	                "       warpost ratings --recompute | --check\n"
	                "Replays every rated result and compares with the stored ratings.\n");
	return 2;
}

int
wp_cli(int argc, char **argv)
{
	json_object *doc, *report, *v;
	int ok;

	if (argc > 1 && strcmp(argv[1], "ratings") == 0)
		return wp_ratings_cli(argc, argv);
	if (argc != 3 || strcmp(argv[1], "verify") != 0)
		return usage();
	if (sodium_init() < 0)
		return 2;
	doc = json_object_from_file(argv[2]);
	if (!doc) {
		fprintf(stderr, "warpost: %s: %s\n", argv[2], json_util_get_last_err());
		return 2;
	}
	report = wp_verify(doc);
	json_object_object_add(report, "game", json_object_get(json_object_object_get(doc, "game")));
	ok = json_object_object_get_ex(report, "verified", &v) && json_object_get_boolean(v);
	printf("%s\n", json_object_to_json_string_ext(report, JSON_C_TO_STRING_PRETTY));
	fprintf(stderr, "warpost: match %s: %s\n",
	        json_object_to_json_string(json_object_object_get(doc, "game")),
	        ok ? "verified" : "NOT verified");
	json_object_put(report);
	json_object_put(doc);
	return ok ? 0 : 1;
}
