// SPDX-License-Identifier: GPL-2.0
/*
 * selftest-ubsan.c - a libFuzzer target with a planted bug: a shift by
 * more than the width of int, which UBSan reports without crashing.  It is
 * built by the same rule and flags as the real targets, and
 * tests/run-fuzzers.sh requires its run to fail: if a sanitizer report
 * could pass as a clean run, the real targets' results would mean nothing.
 * Its corpus holds an input that reaches the bug.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

volatile int selftest_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile int one = 1;

	if (size >= 2 && data[0] == 'S')
		selftest_sink = one << (32 + (data[1] & 7));	/* planted */
	return 0;
}
