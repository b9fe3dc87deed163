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

	/* Bytes that are not visible ASCII stand for characters of URLs, so
	 * that mutations go past the first check and into the host's. */
	static const char url_chars[] = "[]:@/.%#?0123456789abcdefx:.";
	if (size >= sizeof(url))
		return 0;
	for (size_t i = 0; i < size; i++)
		url[i] = data[i] > 0x20 && data[i] < 0x7f ? (char)data[i]
		                                         : url_chars[data[i] % (sizeof(url_chars) - 1)];
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
