/* Fuzz target: the webhook URL check (srv/notify/webhook.c, addr.c), which
 * reads the authority itself before libcurl does (issue 24). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "notify_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[240], url[2100];
	int strict, open;

	if (size >= sizeof(url))
		return 0;
	memcpy(url, data, size);
	url[size] = '\0';
	wp_notify_cfg.allow_private = 0;
	why[0] = '\0';
	strict = wp_webhook_url_check(url, why, sizeof(why));
	if (strict < -2 || strict > 0 || (strict != 0 && !why[0]))
		abort(); /* a refusal always says why */
	wp_notify_cfg.allow_private = 1;
	open = wp_webhook_url_check(url, why, sizeof(why));
	if (strict == 0 && open != 0)
		abort(); /* the escape hatch only ever lets more through */
	if (strict == -1 && open != -1)
		abort(); /* the URL's shape does not depend on it */
	return 0;
}
