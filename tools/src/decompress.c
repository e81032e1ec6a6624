// SPDX-License-Identifier: GPL-2.0
/*
 * decompress.c - gzip (zlib), xz and lzma (liblzma), zstd (libzstd),
 * lz4 legacy frames (liblz4) and bzip2 (libbz2), one stream each.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "decompress.h"

static const struct {
	enum compression comp;
	const char *name;
	const unsigned char *magic;
	size_t magic_len;
} formats[] = {
	{ COMP_GZIP, "gzip", (const unsigned char *)"\x1f\x8b", 2 },
	{ COMP_XZ, "xz", (const unsigned char *)"\xfd" "7zXZ\0", 6 },
	{ COMP_ZSTD, "zstd", (const unsigned char *)"\x28\xb5\x2f\xfd", 4 },
	{ COMP_LZ4_LEGACY, "lz4", (const unsigned char *)"\x02\x21\x4c\x18", 4 },
	{ COMP_BZIP2, "bzip2", (const unsigned char *)"BZh", 3 },
	/* lc/lp/pb byte of the usual settings, then a dictionary size. */
	{ COMP_LZMA, "lzma", (const unsigned char *)"\x5d\x00\x00", 3 },
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

enum compression compression_detect(const unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < N_FORMATS; i++)
		if (len >= formats[i].magic_len &&
		    !memcmp(buf, formats[i].magic, formats[i].magic_len))
			return formats[i].comp;
	return COMP_NONE;
}

const char *compression_name(enum compression comp)
{
	size_t i;

	for (i = 0; i < N_FORMATS; i++)
		if (formats[i].comp == comp)
			return formats[i].name;
	return "none";
}

/* A growing output buffer, capped at max. */
struct sink {
	unsigned char *data;
	size_t len, cap, max;
};

/*
 * Make room for NEED more bytes (data+len..cap), or for as many as the
 * cap allows; an error only when not one more byte fits.
 */
static const char *sink_reserve(struct sink *s, size_t need)
{
	while (s->cap - s->len < need && s->cap < s->max) {
		size_t cap = s->cap ? s->cap * 2 : 1 << 16;
		unsigned char *bigger;

		if (cap > s->max)
			cap = s->max;
		bigger = realloc(s->data, cap);
		if (!bigger)
			return "out of memory";
		s->data = bigger;
		s->cap = cap;
	}
	if (s->cap == s->len)
		return "decompressed data larger than the limit";
	return NULL;
}

static const char *inflate_gzip(const unsigned char *in, size_t in_len,
				struct sink *s, size_t *consumed)
{
	z_stream zs;
	const char *why = NULL;
	int ret;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return "zlib cannot start";
	zs.next_in = (unsigned char *)in;
	zs.avail_in = in_len > UINT32_MAX ? UINT32_MAX : (uInt)in_len;
	do {
		why = sink_reserve(s, 1);
		if (why)
			break;
		zs.next_out = s->data + s->len;
		zs.avail_out = (uInt)(s->cap - s->len);
		ret = inflate(&zs, Z_NO_FLUSH);
		s->len = s->cap - zs.avail_out;
		if (ret == Z_BUF_ERROR && zs.avail_in == 0)
			why = "truncated gzip stream";
		else if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			why = zs.msg ? zs.msg : "corrupt gzip stream";
	} while (!why && ret != Z_STREAM_END);
	*consumed = zs.total_in;
	inflateEnd(&zs);
	return why;
}

static const char *lzma_reason(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_MEMLIMIT_ERROR:
		return "xz/lzma dictionary larger than the limit";
	case LZMA_FORMAT_ERROR:
		return "not an xz/lzma stream";
	case LZMA_OPTIONS_ERROR:
		return "unsupported xz/lzma options";
	case LZMA_BUF_ERROR:
		return "truncated xz/lzma stream";
	default:
		return "corrupt xz/lzma stream";
	}
}

static const char *inflate_lzma(bool alone, const unsigned char *in,
				size_t in_len, struct sink *s,
				size_t *consumed)
{
	lzma_stream ls = LZMA_STREAM_INIT;
	const char *why = NULL;
	lzma_ret ret;

	/*
	 * A dictionary larger than the output limit is never needed; the
	 * header of a damaged stream may ask for gigabytes.
	 */
	uint64_t memlimit = (uint64_t)s->max + (8u << 20);

	ret = alone ? lzma_alone_decoder(&ls, memlimit) :
		      lzma_stream_decoder(&ls, memlimit, 0);
	if (ret != LZMA_OK)
		return lzma_reason(ret);
	ls.next_in = in;
	ls.avail_in = in_len;
	do {
		why = sink_reserve(s, 1);
		if (why)
			break;
		ls.next_out = s->data + s->len;
		ls.avail_out = s->cap - s->len;
		ret = lzma_code(&ls, LZMA_FINISH);
		s->len = s->cap - ls.avail_out;
		if (ret != LZMA_OK && ret != LZMA_STREAM_END)
			why = lzma_reason(ret);
	} while (!why && ret != LZMA_STREAM_END);
	*consumed = (size_t)ls.total_in;
	lzma_end(&ls);
	return why;
}

static const char *inflate_zstd(const unsigned char *in, size_t in_len,
				struct sink *s, size_t *consumed)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer zin = { in, in_len, 0 };
	const char *why = NULL;
	size_t ret = 1;

	if (!dctx)
		return "out of memory";
	while (!why && ret != 0) {
		ZSTD_outBuffer zout;

		why = sink_reserve(s, 1);
		if (why)
			break;
		zout.dst = s->data;
		zout.size = s->cap;
		zout.pos = s->len;
		ret = ZSTD_decompressStream(dctx, &zout, &zin);
		s->len = zout.pos;
		if (ZSTD_isError(ret))
			why = ZSTD_getErrorName(ret);
		else if (ret && zin.pos == zin.size && zout.pos < zout.size)
			why = "truncated zstd frame";
	}
	*consumed = zin.pos;
	ZSTD_freeDCtx(dctx);
	return why;
}

static const char *inflate_bzip2(const unsigned char *in, size_t in_len,
				 struct sink *s, size_t *consumed)
{
	bz_stream bz;
	const char *why = NULL;
	int ret;

	memset(&bz, 0, sizeof(bz));
	if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK)
		return "libbz2 cannot start";
	bz.next_in = (char *)in;
	bz.avail_in = in_len > UINT32_MAX ? UINT32_MAX : (unsigned int)in_len;
	do {
		why = sink_reserve(s, 1);
		if (why)
			break;
		bz.next_out = (char *)s->data + s->len;
		bz.avail_out = (unsigned int)(s->cap - s->len);
		ret = BZ2_bzDecompress(&bz);
		s->len = s->cap - bz.avail_out;
		if (ret == BZ_OK && bz.avail_in == 0 && bz.avail_out)
			why = "truncated bzip2 stream";
		else if (ret != BZ_OK && ret != BZ_STREAM_END)
			why = "corrupt bzip2 stream";
	} while (!why && ret != BZ_STREAM_END);
	*consumed = ((size_t)bz.total_in_hi32 << 32) | bz.total_in_lo32;
	BZ2_bzDecompressEnd(&bz);
	return why;
}

/*
 * The legacy lz4 frame (lz4 -l): the magic, then blocks of a 32-bit
 * little-endian compressed size and the data, each inflating to 8 MiB
 * at most.  The frame has no end mark: it ends with the input, at a
 * repeated magic, or (kbuild) at the 4-byte size appended to it, which
 * is the one place a block size can leave fewer bytes than it names.
 */
#define LZ4_LEGACY_BLOCK (8u << 20)

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static const char *inflate_lz4(const unsigned char *in, size_t in_len,
			       struct sink *s, size_t *consumed,
			       size_t *offset)
{
	size_t pos = 4;

	while (in_len - pos >= 4) {
		uint32_t block = get_le32(in + pos);
		const char *why;
		int n;

		if (block == get_le32(in)) {
			pos += 4;
			continue;
		}
		if (block > in_len - pos - 4 && in_len - pos == 4)
			break;
		*offset = pos;
		if (block == 0 || block > in_len - pos - 4 ||
		    block > (uint32_t)LZ4_compressBound(LZ4_LEGACY_BLOCK))
			return "bad lz4 block size";
		why = sink_reserve(s, LZ4_LEGACY_BLOCK);
		if (why)
			return why;
		n = LZ4_decompress_safe((const char *)in + pos + 4,
					(char *)s->data + s->len, (int)block,
					(int)(s->cap - s->len < LZ4_LEGACY_BLOCK ?
					      s->cap - s->len : LZ4_LEGACY_BLOCK));
		if (n < 0)
			return "corrupt lz4 block";
		s->len += (size_t)n;
		pos += 4 + block;
	}
	*consumed = pos;
	return NULL;
}

const char *decompress(enum compression comp, const unsigned char *in,
		       size_t in_len, size_t max_out, unsigned char **out,
		       size_t *out_len, size_t *consumed, size_t *offset)
{
	struct sink s = { NULL, 0, 0, max_out };
	const char *why;

	*consumed = 0;
	*offset = 0;
	switch (comp) {
	case COMP_GZIP:
		why = inflate_gzip(in, in_len, &s, consumed);
		break;
	case COMP_XZ:
	case COMP_LZMA:
		why = inflate_lzma(comp == COMP_LZMA, in, in_len, &s, consumed);
		break;
	case COMP_ZSTD:
		why = inflate_zstd(in, in_len, &s, consumed);
		break;
	case COMP_BZIP2:
		why = inflate_bzip2(in, in_len, &s, consumed);
		break;
	case COMP_LZ4_LEGACY:
		why = inflate_lz4(in, in_len, &s, consumed, offset);
		break;
	default:
		why = "not compressed";
		break;
	}
	if (why) {
		if (!*offset)
			*offset = *consumed;
		free(s.data);
		return why;
	}
	*out = s.data;
	*out_len = s.len;
	return NULL;
}
