// SPDX-License-Identifier: GPL-2.0
/*
 * policy-lint.c - warnings about IMA policy rules that make the built-in
 * module allowlist useless or unsafe (policy.h, policy_lint).
 *
 * ima_match_policy() walks the rules in order and, for each kind of action
 * (measure or dont_measure, appraise or dont_appraise, hash or dont_hash),
 * takes the first rule whose conditions all hold; a dont_ rule that
 * matches first decides as much as any other.  A module file is read with
 * func MODULE_CHECK and mask MAY_READ.  A rule without func= matches every
 * file hook, MODULE_CHECK included; its other conditions (fsmagic, uid,
 * LSM labels...) make it match some module reads only, and none when they
 * name a filesystem that cannot hold a module file (module-fs.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "module-fs.h"
#include "policy.h"

enum coverage { NOT_MODULES, SOME_MODULES, ALL_MODULES };

/* Can the filesystem that R's fsmagic= or fsname= names hold a module? */
static bool fs_can_hold_modules(const struct policy_rule *r)
{
	const struct module_fs *fs;

	if (r->flags & PF_FSMAGIC) {
		fs = module_fs_by_magic(r->fsmagic);
		if (fs && !fs->holds_modules)
			return false;
	}
	if (r->flags & PF_FSNAME) {
		fs = module_fs_by_name(r->fsname);
		if (fs && !fs->holds_modules)
			return false;
	}
	return true;
}

static bool matches_read_mask(const struct policy_rule *r)
{
	if (r->flags & PF_MASK)
		return r->mask == POLICY_MAY_READ;
	if (r->flags & PF_INMASK)
		return r->mask & POLICY_MAY_READ;
	return true;
}

static enum coverage module_coverage(const struct policy_rule *r)
{
	if (r->func != FUNC_NONE && r->func != FUNC_MODULE_CHECK)
		return NOT_MODULES;
	if (!matches_read_mask(r) || !fs_can_hold_modules(r))
		return NOT_MODULES;
	if (r->flags & PF_CONDITIONS & ~(PF_MASK | PF_INMASK))
		return SOME_MODULES;
	return ALL_MODULES;
}

static bool is_appraisal(const struct policy_rule *r)
{
	return r->action == ACTION_APPRAISE || r->action == ACTION_DONT_APPRAISE;
}

static bool is_measurement(const struct policy_rule *r)
{
	return r->action == ACTION_MEASURE || r->action == ACTION_DONT_MEASURE;
}

static bool same_kind(const struct policy_rule *a, const struct policy_rule *b)
{
	return (is_appraisal(a) && is_appraisal(b)) ||
	       (is_measurement(a) && is_measurement(b));
}

static bool is_exemption(const struct policy_rule *r)
{
	return r->action == ACTION_DONT_APPRAISE ||
	       r->action == ACTION_DONT_MEASURE;
}

/* Is WORD (up to its space) one of the space-ended words of LIST? */
static bool has_word(const char *list, const char *word, size_t len)
{
	while (*list) {
		size_t n = strcspn(list, " ");

		if (n == len && !memcmp(list, word, len))
			return true;
		list += n + 1;
	}
	return false;
}

/*
 * Does every module read that rule I matches meet all of J's conditions?
 * True when J has no condition I lacks (fsmagic compared as a number,
 * the others as written); an unsure answer is false.
 */
static bool matches_all_reads_of(const struct policy_rule *j,
				 const struct policy_rule *i)
{
	const char *w;

	if (module_coverage(j) == ALL_MODULES)
		return true;
	if (j->conditions_cut || i->conditions_cut)
		return false;
	if ((j->flags & PF_FSMAGIC) &&
	    (!(i->flags & PF_FSMAGIC) || i->fsmagic != j->fsmagic))
		return false;
	for (w = j->conditions; *w; w += strcspn(w, " ") + 1)
		if (strncmp(w, "fsmagic=", 8) &&
		    !has_word(i->conditions, w, strcspn(w, " ")))
			return false;
	return true;
}

/*
 * The earlier rule of the same kind that decides every module read rule
 * I would match, so that I never applies to modules; NULL if none.
 */
static const struct policy_rule *decided_before(const struct policy *p,
						size_t i)
{
	const struct policy_rule *r = &p->rules[i];
	size_t j;

	for (j = 0; j < i; j++) {
		const struct policy_rule *first = &p->rules[j];

		if (same_kind(first, r) &&
		    module_coverage(first) != NOT_MODULES &&
		    matches_all_reads_of(first, r))
			return first;
	}
	return NULL;
}

/*
 * The rule that exemption I keeps module reads from: the first later rule
 * of ACTION for module reads that no rule before I hides entirely.
 */
static const struct policy_rule *meant_rule(const struct policy *p, size_t i,
					    enum policy_action action)
{
	size_t k;

	for (k = i + 1; k < p->n_rules; k++) {
		const struct policy_rule *later = &p->rules[k], *first;

		if (later->action != action ||
		    module_coverage(later) == NOT_MODULES)
			continue;
		first = decided_before(p, k);
		if (!first || first >= &p->rules[i])
			return later;
	}
	return NULL;
}

/* Does critical-data rule R match the label "module_hashes"? */
static bool covers_allowlist_data(const struct policy_rule *r)
{
	const char *p = r->label;
	size_t n = strlen("module_hashes");

	if (r->func != FUNC_CRITICAL_DATA || !is_measurement(r))
		return false;
	if (!(r->flags & PF_LABEL))
		return true;
	for (;;) {
		if (!strncmp(p, "module_hashes", n) && (p[n] == '|' || !p[n]))
			return true;
		p = strchr(p, '|');
		if (!p)
			return false;
		p++;
	}
}

/*
 * Where the module reads exemption R matches are, for its warning: "" for
 * no filesystem condition, else the filesystem and why it counts.
 */
static void describe_fs(const struct policy_rule *r, char *buf, size_t size)
{
	const struct module_fs *fs = NULL;

	buf[0] = '\0';
	if (r->flags & PF_FSMAGIC)
		fs = module_fs_by_magic(r->fsmagic);
	else if (r->flags & PF_FSNAME)
		fs = module_fs_by_name(r->fsname);
	else
		return;
	if (fs)
		snprintf(buf, size, " on %s, which can hold module files,",
			 (r->flags & PF_FSNAME) ? r->fsname : fs->name);
	else if (r->flags & PF_FSMAGIC)
		snprintf(buf, size, " on filesystem 0x%llx, unknown to modhash and taken as one that can hold module files,",
			 r->fsmagic);
	else
		snprintf(buf, size, " on filesystem %s, unknown to modhash and taken as one that can hold module files,",
			 r->fsname);
}

/*
 * Rule I is a live dont_ rule for module reads: warn if it keeps them
 * from a later rule of ACTION, as the modules it matches escape it (EFFECT).
 */
static int lint_exemption(struct policy *p, size_t i, enum policy_action action,
			  const char *effect)
{
	const struct policy_rule *r = &p->rules[i];
	const struct policy_rule *meant = meant_rule(p, i, action);
	char where[200];

	if (!meant)
		return 0;
	describe_fs(r, where, sizeof(where));
	return policy_diag(p, r->line, r->column, true,
			   "%s matches module reads%s before the %s rule on line %u (%s): %s",
			   action == ACTION_APPRAISE ? "dont_appraise" : "dont_measure",
			   where, action == ACTION_APPRAISE ? "appraise" : "measure",
			   meant->line, meant->text, effect);
}

static int lint_appraise(struct policy *p, size_t i)
{
	const struct policy_rule *r = &p->rules[i];

	if (r->action == ACTION_DONT_APPRAISE)
		return lint_exemption(p, i, ACTION_APPRAISE,
				      "the modules it matches are never appraised, the allowlist is not consulted");
	if (!(r->flags & PF_DIGSIG))
		return policy_diag(p, r->line, r->column, true,
				   "appraise rule for module reads without appraise_type=imasig: a hash in security.ima, which root can write, satisfies it, so modules off the allowlist load");
	return 0;
}

/* The first measure rule that decides some module reads, or NULL. */
static const struct policy_rule *first_live_measure(const struct policy *p)
{
	size_t i;

	for (i = 0; i < p->n_rules; i++)
		if (p->rules[i].action == ACTION_MEASURE &&
		    module_coverage(&p->rules[i]) != NOT_MODULES &&
		    !decided_before(p, i))
			return &p->rules[i];
	return NULL;
}

static int lint_measure(struct policy *p, size_t i)
{
	const struct policy_rule *r = &p->rules[i];
	size_t j;

	if (r->action == ACTION_DONT_MEASURE)
		return lint_exemption(p, i, ACTION_MEASURE,
				      "those loads are missing from the measurement list");
	if ((r->flags & PF_TEMPLATE) && !strcmp(r->template_name, "ima") &&
	    policy_diag(p, r->line, r->column, true,
			"template=ima logs SHA-1 digests only: module loads cannot be checked against the allowlist"))
		return -1;
	/* Only the first measure rule for modules asks for the list's entry. */
	if (first_live_measure(p) != r)
		return 0;
	for (j = 0; j < p->n_rules; j++) {
		const struct policy_rule *data = &p->rules[j];

		if (!covers_allowlist_data(data))
			continue;
		if (data->action == ACTION_DONT_MEASURE)
			break;
		if ((data->flags & PF_TEMPLATE) &&
		    strcmp(data->template_name, "ima-buf"))
			return policy_diag(p, data->line, data->column, true,
					   "template=%s has no buf field: the module-allowlist entry would not show the list's digest",
					   data->template_name);
		return 0;
	}
	return policy_diag(p, r->line, r->column, true,
			   "module loads are measured but not the allowlist (add \"measure func=CRITICAL_DATA label=module_hashes\"): a verifier cannot tell which list the kernel enforced");
}

/*
 * A measure or appraise rule with func=MODULE_CHECK whose fsmagic= or
 * fsname= names a filesystem that cannot hold a module: it never applies.
 */
static int lint_no_module_fs(struct policy *p, const struct policy_rule *r)
{
	const struct module_fs *fs = (r->flags & PF_FSMAGIC) ?
				     module_fs_by_magic(r->fsmagic) : NULL;

	if (!fs || fs->holds_modules)
		fs = (r->flags & PF_FSNAME) ? module_fs_by_name(r->fsname) : NULL;
	return policy_diag(p, r->line, r->column, true,
			   "this rule never applies: no module file can be on %s (%s)",
			   fs->name, fs->why);
}

int policy_lint(struct policy *p)
{
	size_t i;

	for (i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];
		const struct policy_rule *first;
		int rc = 0;

		if ((r->flags & PF_APPRAISE_FLAG) &&
		    policy_diag(p, r->line, r->column, true,
				"appraise_flag= is ignored by Linux 6.12"))
			return -1;
		if (!is_appraisal(r) && !is_measurement(r))
			continue;
		if (r->func == FUNC_MODULE_CHECK && !is_exemption(r) &&
		    !fs_can_hold_modules(r)) {
			if (lint_no_module_fs(p, r))
				return -1;
			continue;
		}
		if (module_coverage(r) == NOT_MODULES)
			continue;
		first = decided_before(p, i);
		if (first) {
			/* A dont_ rule that never applies exempts nothing. */
			if (!is_exemption(r) &&
			    policy_diag(p, r->line, r->column, true,
					"this %s rule never applies to modules: line %u (%s) decides first every module read it matches",
					is_appraisal(r) ? "appraise" : "measure",
					first->line, first->text))
				return -1;
			continue;
		}
		if (is_appraisal(r))
			rc = lint_appraise(p, i);
		else
			rc = lint_measure(p, i);
		if (rc)
			return -1;
	}
	return 0;
}
