/* Runs a fuzz target without libFuzzer (gcc builds): every corpus file,
 * then N seeded random mutations of them. The libFuzzer build (clang,
 * WP_FUZZ=ON) explores far better; this keeps the targets exercised in
 * every build. Usage: fuzz_x [-runs=N] CORPUS_DIR... */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUTS 512
#define MAX_LEN 4096

static uint8_t *inputs[MAX_INPUTS];
static size_t lens[MAX_INPUTS];
static size_t ninputs;

static void
load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && ninputs < MAX_INPUTS) {
		char path[1024];
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(f = fopen(path, "rb")))
			continue;
		inputs[ninputs] = malloc(MAX_LEN);
		lens[ninputs] = fread(inputs[ninputs], 1, MAX_LEN, f);
		fclose(f);
		ninputs++;
	}
	closedir(d);
}

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t
next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int
main(int argc, char **argv)
{
	long runs = 20000;
	uint8_t buf[MAX_LEN];

	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "-runs=", 6) == 0)
			runs = atol(argv[i] + 6);
		else if (argv[i][0] != '-')
			load_dir(argv[i]);
	}
	for (size_t i = 0; i < ninputs; i++)
		LLVMFuzzerTestOneInput(inputs[i], lens[i]);
	for (long r = 0; r < runs; r++) {
		size_t len = 0;
		if (ninputs) {
			size_t k = next() % ninputs;
			len = lens[k];
			memcpy(buf, inputs[k], len);
		}
		for (int m = (int)(next() % 8) + 1; m > 0; m--) {
			size_t op = next() % 4, pos = len ? next() % len : 0;
			if (op == 0 && len)
				buf[pos] = (uint8_t)next();
			else if (op == 1 && len < MAX_LEN)
				buf[len++] = (uint8_t)next();
			else if (op == 2 && len)
				len = pos;
			else if (op == 3 && len && len < MAX_LEN) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = "{}[]\":,\\\n%./"[next() % 12];
				len++;
			}
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("%zu corpus inputs and %ld mutations: no crash\n", ninputs, runs);
	return 0;
}
