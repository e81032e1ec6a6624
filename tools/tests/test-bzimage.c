// SPDX-License-Identifier: GPL-2.0
/* test-bzimage.c - the setup header: payload found, bad headers refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "bzimage.h"
#include "kernel-fixture.h"

static unsigned char *image(size_t *len)
{
	static const unsigned char payload[100] = { 0x1f, 0x8b };

	unsigned char *buf = bzimage_wrap(payload, sizeof(payload), 2, len);

	/* Room for 4 setup sectors, for the setup_sects 0 case. */
	buf = realloc(buf, 5 * 512 + 100);
	memset(buf + *len, 0, 5 * 512 + 100 - *len);
	return buf;
}

static void expect(unsigned char *buf, size_t len, const char *reason,
		   size_t where)
{
	size_t offset, size, at;

	assert_string_equal(bzimage_payload(buf, len, &offset, &size, &at),
			    reason);
	assert_int_equal(at, where);
}

static void test_payload_found(void **state)
{
	size_t len, offset, size, where;
	unsigned char *buf = image(&len);

	(void)state;
	assert_true(bzimage_looks_like(buf, len));
	assert_null(bzimage_payload(buf, len, &offset, &size, &where));
	assert_int_equal(offset, 3 * 512);
	assert_int_equal(size, 100);
	assert_int_equal(buf[offset], 0x1f);
	/* setup_sects 0 means 4, as the boot protocol says: 2560 bytes. */
	buf[0x1f1] = 0;
	assert_string_equal(bzimage_payload(buf, len, &offset, &size, &where),
			    "setup code runs past the end of the file");
	assert_null(bzimage_payload(buf, 5 * 512 + 100, &offset, &size, &where));
	assert_int_equal(offset, 5 * 512);
	free(buf);
}

static void test_bad_headers(void **state)
{
	size_t len;
	unsigned char *buf = image(&len);

	(void)state;
	expect(buf, 0x200, "too short for an x86 setup header", 0);
	buf[0x202] = 'X';
	expect(buf, len, "no x86 setup header (HdrS)", 0x202);
	buf[0x202] = 'H';
	buf[0x206] = 0x07;
	buf[0x207] = 0x02;
	expect(buf, len, "boot protocol older than 2.08: no payload fields",
	       0x206);
	buf[0x206] = 0x0f;
	buf[0x211] = 0;
	expect(buf, len, "a zImage, not a bzImage", 0x211);
	buf[0x211] = 1;
	buf[0x1f1] = 200;
	expect(buf, len, "setup code runs past the end of the file", 0x1f1);
	buf[0x1f1] = 2;
	buf[0x249] = 0x10;	/* payload_offset 4096 */
	expect(buf, len, "payload_offset past the end of the file", 0x248);
	buf[0x249] = 0;
	buf[0x24e] = 1;		/* payload_length 64 KiB more */
	expect(buf, len, "payload_length past the end of the file", 0x24c);
	memset(buf + 0x24c, 0, 4);
	expect(buf, len, "empty payload", 0x24c);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payload_found),
		cmocka_unit_test(test_bad_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
