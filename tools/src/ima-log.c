// SPDX-License-Identifier: GPL-2.0
/* ima-log.c - parse IMA binary measurement lists (see ima-log.h). */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "ima-log.h"

/* The built-in templates of 6.12 (ima_template.c) and their fields. */
static const struct {
	const char *name;
	const char *fmt;
} templates[] = {
	{ "ima-ng", "d-ng|n-ng" },
	{ "ima-sig", "d-ng|n-ng|sig" },
	{ "ima-buf", "d-ng|n-ng|buf" },
	{ "ima-modsig", "d-ng|n-ng|sig|d-modsig|modsig" },
	{ "ima-ngv2", "d-ngv2|n-ng" },
	{ "ima-sigv2", "d-ngv2|n-ng|sig" },
	{ "evm-sig", "d-ng|n-ng|evmsig|xattrnames|xattrlengths|xattrvalues|iuid|igid|imode" },
};

#define N_TEMPLATES (sizeof(templates) / sizeof(templates[0]))

/* The "ima" template: a SHA-1 (or MD5) digest without length. */
#define IMA_TEMPLATE_DIGEST	20

size_t ima_log_bank_size(const char *algo)
{
	const EVP_MD *md = EVP_get_digestbyname(algo);
	int size = md ? EVP_MD_size(md) : 0;

	return size > 0 && size <= IMA_LOG_MAX_DIGEST ? (size_t)size : 0;
}

void ima_log_init(struct ima_log *log, const unsigned char *data, size_t len,
		  size_t hash_size)
{
	memset(log, 0, sizeof(*log));
	log->data = data;
	log->len = len;
	log->hash_size = hash_size;
}

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A cursor over one entry, with the reason and offset of a failure. */
struct cursor {
	const unsigned char *base;	/* the whole file */
	size_t pos, end;
	const char *why;
	size_t err;
};

static bool fail(struct cursor *c, size_t at, const char *why)
{
	if (!c->why) {
		c->why = why;
		c->err = at;
	}
	return false;
}

static bool take(struct cursor *c, size_t n, struct ima_log_bytes *out,
		 const char *what)
{
	if (c->end - c->pos < n)
		return fail(c, c->pos, what);
	out->data = c->base + c->pos;
	out->len = n;
	c->pos += n;
	return true;
}

static bool take_u32(struct cursor *c, uint32_t *v, const char *what)
{
	struct ima_log_bytes b;

	if (!take(c, 4, &b, what))
		return false;
	*v = get_le32(b.data);
	return true;
}

/* A u32 length and that many bytes. */
static bool take_field(struct cursor *c, struct ima_log_bytes *out,
		       const char *what_len, const char *what)
{
	uint32_t len;

	return take_u32(c, &len, what_len) && take(c, len, out, what);
}

/* Copy a name of LEN bytes (no NUL inside) into DST of SIZE bytes. */
static bool copy_name(struct cursor *c, size_t at, const unsigned char *src,
		      size_t len, char *dst, size_t size)
{
	if (len >= size)
		return fail(c, at, "event name too long");
	if (memchr(src, '\0', len))
		return fail(c, at, "NUL byte inside the event name");
	memcpy(dst, src, len);
	dst[len] = '\0';
	return true;
}

/* Where a d-ng style field goes: d-ng and d-ngv2, or d-modsig. */
struct digest_out {
	char *algo;			/* sizeof(e->digest_algo) bytes */
	char *type;			/* d-ngv2 only, else NULL */
	struct ima_log_bytes *digest;
};

/* d-ng, d-ngv2, d-modsig: ["ima:"|"verity:"] "algo:" NUL digest. */
static bool decode_digest_ng(struct cursor *c, size_t at,
			     const struct ima_log_bytes *f,
			     const struct digest_out *out)
{
	const unsigned char *nul = memchr(f->data, '\0', f->len);
	const char *prefix = (const char *)f->data, *algo = prefix;
	size_t prefix_len, expected, algo_len;

	if (!nul || nul == f->data || nul[-1] != ':')
		return fail(c, at, "digest field without \"algo:\" prefix");
	prefix_len = (size_t)(nul - f->data);
	if (out->type) {
		const char *colon = memchr(prefix, ':', prefix_len - 1);

		if (!colon || (size_t)(colon - prefix) >= IMA_LOG_DIGEST_TYPE)
			return fail(c, at, "d-ngv2 field without digest type");
		memcpy(out->type, prefix, (size_t)(colon - prefix));
		out->type[colon - prefix] = '\0';
		algo = colon + 1;
	}
	algo_len = (size_t)(nul - 1 - (const unsigned char *)algo);
	if (algo_len >= IMA_LOG_DIGEST_ALGO)
		return fail(c, at, "digest algorithm name too long");
	memcpy(out->algo, algo, algo_len);
	out->algo[algo_len] = '\0';
	out->digest->data = nul + 1;
	out->digest->len = f->len - prefix_len - 1;
	expected = ima_log_bank_size(out->algo);
	if (expected && out->digest->len != expected)
		return fail(c, at, "digest length does not match its algorithm");
	if (!out->digest->len)
		return fail(c, at, "empty digest");
	return true;
}

/* One field of a template other than "ima", by its identifier. */
static bool decode_field(struct cursor *c, const char *id, size_t id_len,
			 struct ima_log_entry *e)
{
	size_t at = c->pos;
	struct ima_log_bytes f;

#define IS(s) (id_len == sizeof(s) - 1 && !memcmp(id, s, id_len))
	if (!take_field(c, &f, "truncated field length", "truncated field"))
		return false;
	at += 4;
	if (IS("d-ng") || IS("d-ngv2")) {
		struct digest_out out = { e->digest_algo,
					  IS("d-ngv2") ? e->digest_type : NULL,
					  &e->digest };

		return decode_digest_ng(c, at, &f, &out);
	}
	if (IS("d-modsig")) {
		struct digest_out out = { e->modsig_algo, NULL,
					  &e->modsig_digest };

		/* Empty when the file has no appended signature. */
		return !f.len || decode_digest_ng(c, at, &f, &out);
	}
	if (IS("n-ng")) {
		if (!f.len || f.data[f.len - 1] != '\0')
			return fail(c, at, "event name not NUL-terminated");
		return copy_name(c, at, f.data, f.len - 1, e->name,
				 sizeof(e->name));
	}
	if (IS("sig"))
		e->sig = f;
	else if (IS("buf"))
		e->buf = f;
	else if (IS("modsig"))
		e->modsig = f;
	/* evmsig, xattr*, iuid, igid, imode: kept as bytes only. */
	return true;
#undef IS
}

const char *ima_log_template_fields(const char *name)
{
	size_t i;

	if (!strcmp(name, "ima"))
		return "d|n";
	for (i = 0; i < N_TEMPLATES; i++)
		if (!strcmp(templates[i].name, name))
			return templates[i].fmt;
	/* A custom ima_template_fmt= template is named by its format. */
	if (strchr(name, '|') || !strcmp(name, "d-ng") || !strcmp(name, "n-ng"))
		return name;
	return NULL;
}

static bool decode_fields(struct cursor *c, const char *fmt,
			  struct ima_log_entry *e)
{
	unsigned int n = 0;

	while (*fmt) {
		size_t len = strcspn(fmt, "|");

		if (++n > IMA_LOG_MAX_FIELDS)
			return fail(c, c->pos, "too many template fields");
		if (!decode_field(c, fmt, len, e))
			return false;
		fmt += len;
		if (*fmt == '|')
			fmt++;
	}
	if (c->pos != c->end)
		return fail(c, c->pos, "template data longer than its fields");
	e->decoded = true;
	return true;
}

/* The "ima" template's data: digest, u32 length, name without NUL. */
static bool parse_ima_template(struct cursor *c, struct ima_log_entry *e)
{
	struct ima_log_bytes name;
	size_t start = c->pos, at;
	uint32_t len;

	if (!take(c, IMA_TEMPLATE_DIGEST, &e->digest, "truncated digest") ||
	    !take_u32(c, &len, "truncated event name length"))
		return false;
	at = c->pos;
	if (len > IMA_LOG_MAX_NAME)
		return fail(c, at - 4, "event name too long");
	if (!take(c, len, &name, "truncated event name") ||
	    !copy_name(c, at, name.data, name.len, e->name, sizeof(e->name)))
		return false;
	e->template_data.data = c->base + start;
	e->template_data.len = c->pos - start;
	e->decoded = true;
	return true;
}

static bool parse_entry(struct cursor *c, size_t hash_size,
			struct ima_log_entry *e)
{
	struct ima_log_bytes name;
	uint32_t name_len;
	size_t i, at;

	if (!take_u32(c, &e->pcr, "truncated PCR index"))
		return false;
	if (e->pcr > IMA_LOG_MAX_PCR)
		return fail(c, c->pos - 4,
			    "PCR index out of range (a big-endian list without ima_canonical_fmt?)");
	if (!take(c, hash_size, &e->template_hash, "truncated template hash") ||
	    !take_u32(c, &name_len, "truncated template name length"))
		return false;
	at = c->pos;
	if (name_len == 0 || name_len > IMA_LOG_MAX_TEMPLATE)
		return fail(c, at - 4, "template name length out of range");
	if (!take(c, name_len, &name, "truncated template name"))
		return false;
	for (i = 0; i < name_len; i++)
		if (name.data[i] < 0x21 || name.data[i] > 0x7e)
			return fail(c, at + i, "template name not printable");
	memcpy(e->template_name, name.data, name_len);
	e->template_name[name_len] = '\0';
	e->violation = true;
	for (i = 0; i < hash_size; i++)
		if (e->template_hash.data[i])
			e->violation = false;

	if (!strcmp(e->template_name, "ima"))
		return parse_ima_template(c, e);

	{
		uint32_t data_len;
		const char *fmt = ima_log_template_fields(e->template_name);
		struct cursor fields;

		if (!take_u32(c, &data_len, "truncated template data length") ||
		    !take(c, data_len, &e->template_data,
			  "truncated template data"))
			return false;
		if (!fmt)
			return true;	/* unknown template: kept undecoded */
		fields = *c;
		fields.pos = c->pos - data_len;
		fields.end = c->pos;
		if (!decode_fields(&fields, fmt, e))
			return fail(c, fields.err, fields.why);
	}
	return true;
}

int ima_log_next(struct ima_log *log, struct ima_log_entry *e,
		 struct ima_log_error *err)
{
	struct cursor c = {
		.base = log->data, .pos = log->pos, .end = log->len,
	};

	memset(e, 0, sizeof(*e));
	e->index = log->index;
	e->offset = log->pos;
	if (log->pos >= log->len)
		return 0;
	if (!log->hash_size || !parse_entry(&c, log->hash_size, e)) {
		err->why = c.why ? c.why : "unknown template hash size";
		err->offset = c.why ? c.err : log->pos;
		err->index = log->index;
		err->entry_offset = log->pos;
		log->pos = log->len;	/* no way to resynchronise */
		return -1;
	}
	e->size = c.pos - log->pos;
	log->pos = c.pos;
	log->index++;
	return 1;
}

size_t ima_log_template_digest(const struct ima_log_entry *e,
			       const EVP_MD *md, unsigned char *out)
{
	EVP_MD_CTX *ctx;
	unsigned int n = 0;
	int ok;

	if (!md || !(ctx = EVP_MD_CTX_new()))
		return 0;
	ok = EVP_DigestInit_ex(ctx, md, NULL);
	if (!strcmp(e->template_name, "ima")) {
		/* The digest, then the name zero-padded to 256 bytes. */
		unsigned char padded[IMA_LOG_MAX_NAME + 1] = { 0 };

		memcpy(padded, e->name, strlen(e->name));
		ok = ok && EVP_DigestUpdate(ctx, e->digest.data, e->digest.len) &&
		     EVP_DigestUpdate(ctx, padded, sizeof(padded));
	} else {
		ok = ok && EVP_DigestUpdate(ctx, e->template_data.data,
					    e->template_data.len);
	}
	ok = ok && EVP_DigestFinal_ex(ctx, out, &n);
	EVP_MD_CTX_free(ctx);
	return ok ? n : 0;
}

const char *ima_log_detect_bank(const unsigned char *log, size_t len,
				const char **why)
{
	static const char *const banks[] = { "sha1", "sha256", "sha384",
					     "sha512" };
	bool parsed = false;
	size_t i;

	*why = "empty list";
	if (!len)
		return NULL;
	for (i = 0; i < sizeof(banks) / sizeof(banks[0]); i++) {
		const EVP_MD *md = EVP_get_digestbyname(banks[i]);
		unsigned char digest[EVP_MAX_MD_SIZE];
		struct ima_log_error err;
		struct ima_log_entry e;
		struct ima_log it;
		int rc;

		ima_log_init(&it, log, len, ima_log_bank_size(banks[i]));
		while ((rc = ima_log_next(&it, &e, &err)) > 0 && e.violation)
			parsed = true;
		if (rc <= 0)
			continue;
		parsed = true;
		if (ima_log_template_digest(&e, md, digest) == it.hash_size &&
		    !memcmp(digest, e.template_hash.data, it.hash_size))
			return banks[i];
	}
	*why = parsed ? "no bank's template hash matches the first entry that is not a violation"
		      : "no entry can be read with the template hash of any bank (sha1, sha256, sha384, sha512)";
	return NULL;
}
