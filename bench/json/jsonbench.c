// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/json_parse.sh's program: parses a Prometheus query API answer
 * (a vector) with one JSON library, chosen at build time (-DUSE_JANSSON,
 * -DUSE_JSONC, -DUSE_CJSON), and walks it as xgtop's Prometheus source
 * does: every series' labels and its value's text. Prints the best of
 * RUNS times in ms and a checksum so the walk cannot be optimised away. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(USE_JANSSON)
#include <jansson.h>
#define LIB "jansson"
#elif defined(USE_JSONC)
#include <json-c/json.h>
#define LIB "json-c"
#else
#include <cjson/cJSON.h>
#define LIB "cJSON"
#endif

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned long sum_str(const char *s)
{
	unsigned long h = 0;
	while (*s)
		h = h * 31 + (unsigned char)*s++;
	return h;
}

static unsigned long walk(const char *text, size_t n, size_t *series)
{
	unsigned long h = 0;
	*series = 0;
#if defined(USE_JANSSON)
	json_error_t e;
	json_t *root = json_loadb(text, n, 0, &e);
	json_t *res = json_object_get(json_object_get(root, "data"), "result");
	size_t i;
	json_t *s;
	json_array_foreach(res, i, s) {
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(s, "metric"), k, v)
			h += sum_str(k) ^ sum_str(json_string_value(v));
		h += sum_str(json_string_value(json_array_get(json_object_get(s, "value"), 1)));
		(*series)++;
	}
	json_decref(root);
#elif defined(USE_JSONC)
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *root = json_tokener_parse_ex(tok, text, (int)n);
	json_object *data, *res;
	json_object_object_get_ex(root, "data", &data);
	json_object_object_get_ex(data, "result", &res);
	size_t m = json_object_array_length(res);
	for (size_t i = 0; i < m; i++) {
		json_object *s = json_object_array_get_idx(res, i), *met, *val;
		json_object_object_get_ex(s, "metric", &met);
		json_object_object_foreach(met, k, v)
			h += sum_str(k) ^ sum_str(json_object_get_string(v));
		json_object_object_get_ex(s, "value", &val);
		h += sum_str(json_object_get_string(json_object_array_get_idx(val, 1)));
		(*series)++;
	}
	json_object_put(root);
	json_tokener_free(tok);
#else
	cJSON *root = cJSON_ParseWithLength(text, n);
	cJSON *res = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "data"), "result");
	cJSON *s;
	cJSON_ArrayForEach(s, res) {
		cJSON *v;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(s, "metric"))
			h += sum_str(v->string) ^ sum_str(v->valuestring);
		h += sum_str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "value"), 1)->valuestring);
		(*series)++;
	}
	cJSON_Delete(root);
#endif
	return h;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s ANSWER.json RUNS\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *text = malloc((size_t)n + 1);
	if (fread(text, 1, (size_t)n, f) != (size_t)n)
		return 1;
	text[n] = 0;
	fclose(f);
	double best = 1e18;
	unsigned long h = 0;
	size_t series = 0;
	for (int r = 0; r < atoi(argv[2]); r++) {
		double t0 = now_ms();
		h = walk(text, (size_t)n, &series);
		double t = now_ms() - t0;
		best = t < best ? t : best;
	}
	printf("%s %.1f ms %zu series %.1f MB checksum %lx\n", LIB, best, series, n / 1e6, h);
	free(text);
	return series ? 0 : 1;
}
