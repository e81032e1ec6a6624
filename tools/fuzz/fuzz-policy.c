// SPDX-License-Identifier: GPL-2.0
/* fuzz-policy.c - libFuzzer target: the IMA policy parser and linter. */
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy p;
	size_t i, lines = 1;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (!policy_parse((const char *)data, size, &p) && !policy_lint(&p)) {
		/* Every diagnostic points into the input. */
		for (i = 0; i < p.n_diags; i++)
			if (!p.diags[i].line || p.diags[i].line > lines ||
			    !p.diags[i].column || p.diags[i].column > size)
				__builtin_trap();
		if (p.n_rules + p.errors > lines)
			__builtin_trap();
	}
	policy_free(&p);
	return 0;
}
