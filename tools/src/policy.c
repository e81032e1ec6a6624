// SPDX-License-Identifier: GPL-2.0
/* policy.c - the IMA policy grammar of Linux 6.12 (policy.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "policy-validate.h"

enum op { OP_BARE = 1, OP_EQ = 2, OP_LT = 4, OP_GT = 8 };

enum kind {
	K_ACTION, K_FUNC, K_MASK, K_FSMAGIC, K_FSNAME, K_FSUUID, K_UID,
	K_EUID, K_GID, K_EGID, K_FOWNER, K_FGROUP, K_LSM, K_DIGEST_TYPE,
	K_APPRAISE_TYPE, K_APPRAISE_FLAG, K_APPRAISE_ALGOS, K_DIRECTIO,
	K_PCR, K_TEMPLATE, K_KEYRINGS, K_LABEL,
};

static const struct keyword {
	const char *name;
	enum kind kind;
	unsigned int ops;
	int action;		/* K_ACTION: the action; K_LSM: its slot */
} keywords[] = {
	{ "measure", K_ACTION, OP_BARE, ACTION_MEASURE },
	{ "dont_measure", K_ACTION, OP_BARE, ACTION_DONT_MEASURE },
	{ "appraise", K_ACTION, OP_BARE, ACTION_APPRAISE },
	{ "dont_appraise", K_ACTION, OP_BARE, ACTION_DONT_APPRAISE },
	{ "audit", K_ACTION, OP_BARE, ACTION_AUDIT },
	{ "hash", K_ACTION, OP_BARE, ACTION_HASH },
	{ "dont_hash", K_ACTION, OP_BARE, ACTION_DONT_HASH },
	{ "obj_user", K_LSM, OP_EQ, 0 },
	{ "obj_role", K_LSM, OP_EQ, 1 },
	{ "obj_type", K_LSM, OP_EQ, 2 },
	{ "subj_user", K_LSM, OP_EQ, 3 },
	{ "subj_role", K_LSM, OP_EQ, 4 },
	{ "subj_type", K_LSM, OP_EQ, 5 },
	{ "func", K_FUNC, OP_EQ, 0 },
	{ "mask", K_MASK, OP_EQ, 0 },
	{ "fsmagic", K_FSMAGIC, OP_EQ, 0 },
	{ "fsname", K_FSNAME, OP_EQ, 0 },
	{ "fsuuid", K_FSUUID, OP_EQ, 0 },
	{ "uid", K_UID, OP_EQ | OP_LT | OP_GT, 0 },
	{ "euid", K_EUID, OP_EQ | OP_LT | OP_GT, 0 },
	{ "gid", K_GID, OP_EQ | OP_LT | OP_GT, 0 },
	{ "egid", K_EGID, OP_EQ | OP_LT | OP_GT, 0 },
	{ "fowner", K_FOWNER, OP_EQ | OP_LT | OP_GT, 0 },
	{ "fgroup", K_FGROUP, OP_EQ | OP_LT | OP_GT, 0 },
	{ "digest_type", K_DIGEST_TYPE, OP_EQ, 0 },
	{ "appraise_type", K_APPRAISE_TYPE, OP_EQ, 0 },
	{ "appraise_flag", K_APPRAISE_FLAG, OP_EQ, 0 },
	{ "appraise_algos", K_APPRAISE_ALGOS, OP_EQ, 0 },
	{ "permit_directio", K_DIRECTIO, OP_BARE, 0 },
	{ "pcr", K_PCR, OP_EQ, 0 },
	{ "template", K_TEMPLATE, OP_EQ, 0 },
	{ "keyrings", K_KEYRINGS, OP_EQ, 0 },
	{ "label", K_LABEL, OP_EQ, 0 },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	enum policy_func func;
} funcs[] = {
	{ "FILE_CHECK", FUNC_FILE_CHECK },
	{ "PATH_CHECK", FUNC_FILE_CHECK },	/* the old name */
	{ "MODULE_CHECK", FUNC_MODULE_CHECK },
	{ "FIRMWARE_CHECK", FUNC_FIRMWARE_CHECK },
	{ "FILE_MMAP", FUNC_MMAP_CHECK },	/* the old name */
	{ "MMAP_CHECK", FUNC_MMAP_CHECK },
	{ "MMAP_CHECK_REQPROT", FUNC_MMAP_CHECK_REQPROT },
	{ "BPRM_CHECK", FUNC_BPRM_CHECK },
	{ "CREDS_CHECK", FUNC_CREDS_CHECK },
	{ "KEXEC_KERNEL_CHECK", FUNC_KEXEC_KERNEL_CHECK },
	{ "KEXEC_INITRAMFS_CHECK", FUNC_KEXEC_INITRAMFS_CHECK },
	{ "POLICY_CHECK", FUNC_POLICY_CHECK },
	{ "KEXEC_CMDLINE", FUNC_KEXEC_CMDLINE },
	{ "KEY_CHECK", FUNC_KEY_CHECK },
	{ "CRITICAL_DATA", FUNC_CRITICAL_DATA },
	{ "SETXATTR_CHECK", FUNC_SETXATTR_CHECK },
};

/* The built-in templates (ima_template.c). */
static const char *const template_names[] = {
	"ima", "ima-ng", "ima-sig", "ima-ngv2", "ima-sigv2", "ima-buf",
	"ima-modsig", "evm-sig",
};

/* hash_algo_name[] of crypto/hash_info.c. */
static const char *const hash_names[] = {
	"md4", "md5", "sha1", "rmd160", "sha256", "sha384", "sha512",
	"sha224", "rmd128", "rmd256", "rmd320", "wp256", "wp384", "wp512",
	"tgr128", "tgr160", "tgr192", "sm3", "streebog256", "streebog512",
	"sha3-256", "sha3-384", "sha3-512",
};

const char *policy_func_name(enum policy_func func)
{
	size_t i;

	for (i = 0; i < COUNT(funcs); i++)
		if (funcs[i].func == func && strcmp(funcs[i].name, "PATH_CHECK") &&
		    strcmp(funcs[i].name, "FILE_MMAP"))
			return funcs[i].name;
	return "(none)";
}

int policy_diag(struct policy *p, unsigned int line, unsigned int column,
		bool warning, const char *fmt, ...)
{
	struct policy_diag *d, *more;
	va_list ap;

	more = realloc(p->diags, (p->n_diags + 1) * sizeof(*d));
	if (!more)
		return -1;
	p->diags = more;
	d = &p->diags[p->n_diags++];
	d->line = line;
	d->column = column;
	d->warning = warning;
	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
	if (warning)
		p->warnings++;
	else
		p->errors++;
	return 0;
}

void policy_free(struct policy *p)
{
	free(p->rules);
	free(p->diags);
	memset(p, 0, sizeof(*p));
}

/* The rule being parsed, and its first error. */
struct rule_state {
	struct policy_rule rule;
	unsigned int lsm_seen;
	unsigned int flag_column[32];	/* column of each flag's token */
	unsigned int error_column;
	char error[200];
};

static bool error(struct rule_state *s, unsigned int column, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));

static bool error(struct rule_state *s, unsigned int column, const char *fmt,
		  ...)
{
	va_list ap;

	if (s->error[0])
		return false;
	s->error_column = column;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	return false;
}

static void set_flag(struct rule_state *s, unsigned int flag,
		     unsigned int column)
{
	unsigned int bit = 0;

	s->rule.flags |= flag;
	while (!(flag & 1)) {
		flag >>= 1;
		bit++;
	}
	if (!s->flag_column[bit])
		s->flag_column[bit] = column;
}

/* kstrtoul: optional '+', digits of BASE (16 allows "0x"), nothing else. */
static bool parse_ulong(const char *v, int base, unsigned long long *out)
{
	char *end;

	if (*v == '+')
		v++;
	if (base == 16 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		v += 2;
	if (!isxdigit((unsigned char)*v) || (base == 10 && !isdigit((unsigned char)*v)))
		return false;
	errno = 0;
	*out = strtoull(v, &end, base);
	return !errno && *end == '\0';
}

static bool parse_uuid(const char *v)
{
	size_t i;

	if (strlen(v) != 36)
		return false;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (v[i] != '-')
				return false;
		} else if (!isxdigit((unsigned char)v[i])) {
			return false;
		}
	}
	return true;
}

static bool in_list(const char *v, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, list[i]))
			return true;
	return false;
}

/* "a|b|c" with no empty item. */
static bool parse_opt_list(const char *v)
{
	return *v && v[0] != '|' && v[strlen(v) - 1] != '|' && !strstr(v, "||");
}

static bool parse_algos(struct rule_state *s, unsigned int col, const char *v)
{
	char copy[256], *item, *rest;

	if (strlen(v) >= sizeof(copy))
		return error(s, col, "appraise_algos= list too long");
	strcpy(copy, v);
	for (rest = copy; (item = strsep(&rest, ","));)
		if (!in_list(item, hash_names, COUNT(hash_names)))
			return error(s, col, "unknown hash algorithm \"%s\" in appraise_algos=", item);
	return true;
}

static bool parse_mask(struct rule_state *s, unsigned int col, const char *v)
{
	static const struct { const char *name; unsigned int mask; } masks[] = {
		{ "MAY_EXEC", POLICY_MAY_EXEC }, { "MAY_WRITE", POLICY_MAY_WRITE },
		{ "MAY_READ", POLICY_MAY_READ }, { "MAY_APPEND", POLICY_MAY_APPEND },
	};
	bool inverted = *v == '^';
	size_t i;

	if (s->rule.mask)
		return error(s, col, "second mask=");
	for (i = 0; i < COUNT(masks); i++) {
		if (!strcmp(v + inverted, masks[i].name)) {
			s->rule.mask = masks[i].mask;
			set_flag(s, inverted ? PF_INMASK : PF_MASK, col);
			return true;
		}
	}
	return error(s, col, "unknown mask \"%s\" (MAY_EXEC, MAY_WRITE, MAY_READ, MAY_APPEND, optionally after ^)", v);
}

static bool parse_func(struct rule_state *s, unsigned int col, const char *v)
{
	size_t i;

	if (s->rule.func != FUNC_NONE)
		return error(s, col, "second func=");
	for (i = 0; i < COUNT(funcs); i++) {
		if (!strcmp(v, funcs[i].name)) {
			s->rule.func = funcs[i].func;
			set_flag(s, PF_FUNC, col);
			return true;
		}
	}
	return error(s, col, "unknown hook func=%s", v);
}

/* uid, euid, gid, egid, fowner, fgroup: one decimal id per slot. */
static bool parse_id(struct rule_state *s, unsigned int col,
		     const struct keyword *k, const char *v)
{
	unsigned int flag, slot_taken;
	unsigned long long id;

	switch (k->kind) {
	case K_UID: flag = PF_UID; break;
	case K_EUID: flag = PF_EUID; break;
	case K_GID: flag = PF_GID; break;
	case K_EGID: flag = PF_EGID; break;
	case K_FOWNER: flag = PF_FOWNER; break;
	default: flag = PF_FGROUP; break;
	}
	/* uid and euid share one slot in the kernel, as do gid and egid. */
	slot_taken = s->rule.flags & (flag & (PF_UID | PF_EUID) ? PF_UID | PF_EUID :
				      flag & (PF_GID | PF_EGID) ? PF_GID | PF_EGID :
				      flag);
	if (slot_taken)
		return error(s, col, "second %s condition", k->name);
	if (!parse_ulong(v, 10, &id) || id >= UINT32_MAX)
		return error(s, col, "%s: not a valid id: %s", k->name, v);
	set_flag(s, flag, col);
	return true;
}

static bool parse_appraise_type(struct rule_state *s, unsigned int col,
				const char *v)
{
	bool verity = s->rule.flags & PF_VERITY;

	if (!strcmp(v, "imasig") && !verity) {
		set_flag(s, PF_DIGSIG, col);
	} else if (!strcmp(v, "sigv3") && verity) {
		set_flag(s, PF_DIGSIG, col);
	} else if (!strcmp(v, "imasig|modsig") && !verity) {
		set_flag(s, PF_DIGSIG, col);
		set_flag(s, PF_MODSIG, col);
	} else if (!strcmp(v, "sigv3")) {
		return error(s, col, "appraise_type=sigv3 needs digest_type=verity before it");
	} else if (verity && (!strcmp(v, "imasig") || !strcmp(v, "imasig|modsig"))) {
		return error(s, col, "appraise_type=%s cannot follow digest_type=verity (use sigv3)", v);
	} else {
		return error(s, col, "unknown appraise_type=%s (imasig, imasig|modsig, sigv3)", v);
	}
	return true;
}

static bool parse_value(struct rule_state *s, unsigned int col,
			const struct keyword *k, const char *v)
{
	struct policy_rule *r = &s->rule;
	unsigned long long n;

	switch (k->kind) {
	case K_FUNC:
		return parse_func(s, col, v);
	case K_MASK:
		return parse_mask(s, col, v);
	case K_FSMAGIC:
		if (r->flags & PF_FSMAGIC)
			return error(s, col, "second fsmagic=");
		if (!parse_ulong(v, 16, &n) || n > UINT64_MAX / 2)
			return error(s, col, "fsmagic=: not a hex number: %s", v);
		r->fsmagic = n;
		set_flag(s, PF_FSMAGIC, col);
		return true;
	case K_FSNAME:
		n = strlen(v);
		r->fsname_cut = n >= sizeof(r->fsname);
		if (r->fsname_cut)
			n = sizeof(r->fsname) - 1;
		memcpy(r->fsname, v, n);
		r->fsname[n] = '\0';
		set_flag(s, PF_FSNAME, col);
		return true;
	case K_FSUUID:
		if (r->flags & PF_FSUUID)
			return error(s, col, "second fsuuid=");
		if (!parse_uuid(v))
			return error(s, col, "fsuuid=: not a UUID: %s", v);
		set_flag(s, PF_FSUUID, col);
		return true;
	case K_UID: case K_EUID: case K_GID: case K_EGID:
	case K_FOWNER: case K_FGROUP:
		return parse_id(s, col, k, v);
	case K_LSM:
		if (s->lsm_seen & 1u << k->action)
			return error(s, col, "second %s=", k->name);
		s->lsm_seen |= 1u << k->action;
		set_flag(s, PF_LSM, col);
		return true;
	case K_DIGEST_TYPE:
		if (r->flags & PF_DIGSIG)
			return error(s, col, "digest_type= must come before appraise_type=");
		if (strcmp(v, "verity"))
			return error(s, col, "unknown digest_type=%s (verity)", v);
		set_flag(s, PF_VERITY, col);
		return true;
	case K_APPRAISE_TYPE:
		return parse_appraise_type(s, col, v);
	case K_APPRAISE_FLAG:
		set_flag(s, PF_APPRAISE_FLAG, col);
		return true;
	case K_APPRAISE_ALGOS:
		if (r->flags & PF_ALGOS)
			return error(s, col, "second appraise_algos=");
		if (!parse_algos(s, col, v))
			return false;
		set_flag(s, PF_ALGOS, col);
		return true;
	case K_PCR:
		if (!parse_ulong(v, 10, &n) || n > 63)
			return error(s, col, "pcr=: not a PCR index from 0 to 63: %s", v);
		r->pcr = (unsigned int)n;
		set_flag(s, PF_PCR, col);
		return true;
	case K_TEMPLATE:
		if (r->action != ACTION_MEASURE)
			return error(s, col, "template= needs the action measure before it");
		if (r->flags & PF_TEMPLATE)
			return error(s, col, "second template=");
		if (!in_list(v, template_names, COUNT(template_names)))
			return error(s, col, "unknown template=%s", v);
		memcpy(r->template_name, v, strlen(v) + 1);	/* a known name */
		set_flag(s, PF_TEMPLATE, col);
		return true;
	case K_KEYRINGS:
	case K_LABEL:
		if (r->flags & (k->kind == K_LABEL ? PF_LABEL : PF_KEYRINGS))
			return error(s, col, "second %s=", k->name);
		if (!parse_opt_list(v))
			return error(s, col, "%s=: empty item in the list", k->name);
		if (k->kind == K_LABEL && strlen(v) >= sizeof(r->label))
			return error(s, col, "label= list too long");
		if (k->kind == K_LABEL)
			memcpy(r->label, v, strlen(v) + 1);
		set_flag(s, k->kind == K_LABEL ? PF_LABEL : PF_KEYRINGS, col);
		return true;
	default:
		return error(s, col, "internal error");
	}
}

/* The keyword of the KEY_LEN bytes at KEY, or NULL. */
static const struct keyword *find_keyword(const char *key, size_t key_len)
{
	size_t i;

	for (i = 0; i < COUNT(keywords); i++)
		if (strlen(keywords[i].name) == key_len &&
		    !strncmp(keywords[i].name, key, key_len))
			return &keywords[i];
	return NULL;
}

static bool parse_token(struct rule_state *s, unsigned int col, char *tok)
{
	size_t key_len = strcspn(tok, "=<>");
	unsigned int op = !tok[key_len] ? OP_BARE :
			  tok[key_len] == '=' ? OP_EQ :
			  tok[key_len] == '<' ? OP_LT : OP_GT;
	const struct keyword *k = find_keyword(tok, key_len);

	if (!k)
		return error(s, col, "unknown keyword \"%.*s\"", (int)key_len, tok);
	if (!(k->ops & op)) {
		if (k->ops == OP_BARE)
			return error(s, col, "%s takes no value", k->name);
		if (op == OP_BARE)
			return error(s, col, "%s needs a value (%s=...)", k->name, k->name);
		return error(s, col, "%s takes only =", k->name);
	}
	if (k->kind == K_ACTION) {
		if (s->rule.action != ACTION_NONE)
			return error(s, col, "second action %s in one rule", k->name);
		s->rule.action = (enum policy_action)k->action;
		return true;
	}
	if (k->kind == K_DIRECTIO) {
		set_flag(s, PF_DIRECTIO, col);
		return true;
	}
	if (!tok[key_len + 1])
		return error(s, col, "%s: empty value", k->name);
	return parse_value(s, col, k, tok + key_len + 1);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse one rule (a line without its newline, LEN bytes). */
static int parse_rule(struct policy *p, unsigned int line, const char *text,
		      size_t len)
{
	struct rule_state s;
	size_t pos = 0;
	char tok[1024];

	while (pos < len && is_blank(text[pos]))
		pos++;
	if (pos >= len || text[pos] == '#')
		return 0;
	memset(&s, 0, sizeof(s));
	s.rule.line = line;
	s.rule.column = (unsigned int)pos + 1;
	while (pos < len && !s.error[0]) {
		size_t n = 0;

		if (is_blank(text[pos])) {
			pos++;
			continue;
		}
		while (pos + n < len && !is_blank(text[pos + n]))
			n++;
		if (n >= sizeof(tok)) {
			error(&s, (unsigned int)pos + 1, "token too long");
			break;
		}
		memcpy(tok, text + pos, n);
		tok[n] = '\0';
		if (memchr(text + pos, '\0', n))
			error(&s, (unsigned int)pos + 1, "NUL byte in the rule");
		else if (strchr(tok, '\r'))
			error(&s, (unsigned int)(pos + 1 + (size_t)(strchr(tok, '\r') - tok)),
			      "carriage return in the rule (a DOS line end?): the kernel takes it as part of the word");
		else
			parse_token(&s, (unsigned int)pos + 1, tok);
		pos += n;
	}
	if (!s.error[0])
		policy_validate_rule(&s.rule, s.flag_column, s.error,
				     sizeof(s.error), &s.error_column);
	if (s.error[0])
		return policy_diag(p, line, s.error_column, false, "%s", s.error);
	while (len && is_blank(text[len - 1]))
		len--;
	s.rule.offset = (size_t)(text - p->text) + s.rule.column - 1;
	s.rule.length = len - (s.rule.column - 1);
	{
		struct policy_rule *more = realloc(p->rules, (p->n_rules + 1) *
						   sizeof(*more));
		if (!more)
			return -1;
		p->rules = more;
		p->rules[p->n_rules++] = s.rule;
	}
	return 0;
}

int policy_parse(const char *text, size_t len, struct policy *p)
{
	unsigned int line = 1;
	size_t pos = 0;

	memset(p, 0, sizeof(*p));
	p->text = text;
	p->len = len;
	while (pos < len) {
		const char *eol = memchr(text + pos, '\n', len - pos);
		size_t n = eol ? (size_t)(eol - (text + pos)) : len - pos;

		if (parse_rule(p, line, text + pos, n))
			return -1;
		pos += n + 1;
		line++;
	}
	return 0;
}

/* The next word of R's text after *POS, and its length; NULL at the end. */
static const char *next_word(const struct policy *p, const struct policy_rule *r,
			     size_t *pos, size_t *n)
{
	const char *t = p->text + r->offset;

	while (*pos < r->length && is_blank(t[*pos]))
		++*pos;
	if (*pos >= r->length)
		return NULL;
	*n = 0;
	while (*pos + *n < r->length && !is_blank(t[*pos + *n]))
		++*n;
	*pos += *n;
	return t + *pos - *n;
}

/*
 * Append SEP and the N bytes at W to the string BUF of SIZE bytes, of
 * which *OUT are used, if that leaves ROOM bytes free; false if not.
 */
static bool append(char *buf, size_t size, size_t *out, const char *sep,
		   const char *w, size_t n, size_t room)
{
	size_t sep_len = strlen(sep);

	if (*out + sep_len + n + room > size)
		return false;
	memcpy(buf + *out, sep, sep_len);
	memcpy(buf + *out + sep_len, w, n);
	*out += sep_len + n;
	buf[*out] = '\0';
	return true;
}

void policy_rule_text(const struct policy *p, const struct policy_rule *r,
		      char *buf, size_t size)
{
	size_t pos = 0, n, out = 0;
	const char *w;

	buf[0] = '\0';
	while ((w = next_word(p, r, &pos, &n)))
		if (!append(buf, size, &out, out ? " " : "", w, n,
			    sizeof(" ..."))) {
			append(buf, size, &out, out ? " " : "", "...", 3, 1);
			return;
		}
}

bool policy_rule_conditions(const struct policy *p, const struct policy_rule *r,
			    char *buf, size_t size)
{
	size_t pos = 0, n, out = 0;
	const char *w;

	buf[0] = '\0';
	while ((w = next_word(p, r, &pos, &n))) {
		size_t key_len = 0;
		const struct keyword *k;

		while (key_len < n && !strchr("=<>", w[key_len]))
			key_len++;
		k = find_keyword(w, key_len);
		if (!k || !(k->kind == K_FSMAGIC || k->kind == K_FSNAME ||
			    k->kind == K_FSUUID || k->kind == K_LSM ||
			    (k->kind >= K_UID && k->kind <= K_FGROUP)))
			continue;
		if (!append(buf, size, &out, "", w, n, 2))
			return false;
		append(buf, size, &out, "", " ", 1, 1);
	}
	return true;
}
