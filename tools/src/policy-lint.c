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
#include <stdlib.h>
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

static bool is_exemption(const struct policy_rule *r)
{
	return r->action == ACTION_DONT_APPRAISE ||
	       r->action == ACTION_DONT_MEASURE;
}

#define NONE SIZE_MAX

/*
 * How far a rule is compared with earlier ones: with each earlier rule of
 * its kind without conditions, and with the first COMPARED_RULES with
 * conditions that decide some module reads.  Real policies have a few
 * dozen rules; the limit keeps a huge one from taking quadratic time.
 */
#define COMPARED_RULES 256
#define CONDITIONS_MAX 512

/* What policy_lint() works out per rule, indexed like p->rules. */
struct lint {
	struct policy *p;
	enum coverage *coverage;
	size_t *decider;	/* the earlier rule that decides every module
				   read this one matches, or NONE */
	size_t *meant;		/* an exemption's: the rule it keeps module
				   reads from, or NONE */
};

/* Rules compared with later ones: their index and conditions. */
struct compared {
	size_t index[COMPARED_RULES];
	char *conditions[COMPARED_RULES];
	size_t n;
};

/* Is WORD (N bytes) one of the space-ended words of LIST? */
static bool has_word(const char *list, const char *word, size_t n)
{
	while (*list) {
		size_t len = strcspn(list, " ");

		if (len == n && !memcmp(list, word, n))
			return true;
		list += len + 1;
	}
	return false;
}

/*
 * Does every module read that rule I (conditions CI) matches meet all of
 * rule J's conditions (CJ)?  True when J has no condition I lacks (fsmagic
 * compared as a number, the others as written).
 */
static bool matches_all_reads_of(const struct policy_rule *j, const char *cj,
				 const struct policy_rule *i, const char *ci)
{
	const char *w;

	if ((j->flags & PF_FSMAGIC) &&
	    (!(i->flags & PF_FSMAGIC) || i->fsmagic != j->fsmagic))
		return false;
	for (w = cj; *w; w += strcspn(w, " ") + 1)
		if (strncmp(w, "fsmagic=", 8) &&
		    !has_word(ci, w, strcspn(w, " ")))
			return false;
	return true;
}

/*
 * Find, for each rule of KIND (is_appraisal or is_measurement) that
 * matches module reads, the first earlier rule of that kind that matches
 * every module read it does: IMA takes that one.  0 or -1 (no memory).
 */
static int find_deciders(struct lint *l,
			 bool (*kind)(const struct policy_rule *))
{
	const struct policy *p = l->p;
	struct compared c = { .n = 0 };
	char conditions[CONDITIONS_MAX];
	size_t first_all = NONE, i, k;
	int ret = 0;

	for (i = 0; i < p->n_rules && !ret; i++) {
		const struct policy_rule *r = &p->rules[i];
		size_t d = first_all;

		if (!kind(r) || l->coverage[i] == NOT_MODULES)
			continue;
		if (l->coverage[i] == ALL_MODULES) {
			if (first_all == NONE)
				first_all = i;
		} else if (policy_rule_conditions(p, r, conditions,
						  sizeof(conditions))) {
			for (k = 0; k < c.n && c.index[k] < d; k++)
				if (matches_all_reads_of(&p->rules[c.index[k]],
							 c.conditions[k], r,
							 conditions))
					d = c.index[k];
			/* One that never decides cannot be the first later. */
			if (d == NONE && c.n < COMPARED_RULES) {
				c.conditions[c.n] = strdup(conditions);
				c.index[c.n++] = i;
				ret = c.conditions[c.n - 1] ? 0 : -1;
			}
		}
		l->decider[i] = d;
	}
	for (k = 0; k < c.n; k++)
		free(c.conditions[k]);
	return ret;
}

/*
 * For each exemption of ACTION's kind (dont_appraise for appraise), the
 * rule of ACTION it keeps module reads from: the first later rule of
 * ACTION for module reads that no rule before the exemption decides
 * entirely.  A rule K qualifies for the exemptions up to its decider
 * (or up to K - 1 without one); one sweep from the end finds the first.
 */
static int find_meant(struct lint *l, enum policy_action action)
{
	const struct policy *p = l->p;
	size_t *first = malloc(p->n_rules * sizeof(*first));
	size_t i, k, best = NONE;

	if (!first)
		return -1;
	for (i = 0; i < p->n_rules; i++)
		first[i] = NONE;
	for (k = p->n_rules; k-- > 1;) {
		size_t upto = l->decider[k] != NONE ? l->decider[k] : k - 1;

		if (p->rules[k].action == action &&
		    l->coverage[k] != NOT_MODULES)
			first[upto] = k;	/* the smallest K, as K falls */
	}
	for (i = p->n_rules; i-- > 0;) {
		if (first[i] < best)
			best = first[i];
		if (is_exemption(&p->rules[i]) &&
		    (p->rules[i].action == ACTION_DONT_APPRAISE) ==
		    (action == ACTION_APPRAISE))
			l->meant[i] = best;
	}
	free(first);
	return 0;
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
		snprintf(buf, size, " on filesystem %s%s, unknown to modhash and taken as one that can hold module files,",
			 r->fsname, r->fsname_cut ? "..." : "");
}

/*
 * Exemption I decides some module reads: warn if it keeps them from a
 * later rule of ACTION, as the modules it matches escape it (EFFECT).
 */
static int lint_exemption(struct lint *l, size_t i, enum policy_action action,
			  const char *effect)
{
	struct policy *p = l->p;
	const struct policy_rule *r = &p->rules[i];
	char where[200], meant[160];

	if (l->meant[i] == NONE)
		return 0;
	describe_fs(r, where, sizeof(where));
	policy_rule_text(p, &p->rules[l->meant[i]], meant, sizeof(meant));
	return policy_diag(p, r->line, r->column, true,
			   "%s matches module reads%s before the %s rule on line %u (%s): %s",
			   action == ACTION_APPRAISE ? "dont_appraise" : "dont_measure",
			   where, action == ACTION_APPRAISE ? "appraise" : "measure",
			   p->rules[l->meant[i]].line, meant, effect);
}

static int lint_appraise(struct lint *l, size_t i)
{
	const struct policy_rule *r = &l->p->rules[i];

	if (r->action == ACTION_DONT_APPRAISE)
		return lint_exemption(l, i, ACTION_APPRAISE,
				      "the modules it matches are never appraised, the allowlist is not consulted");
	if (!(r->flags & PF_DIGSIG))
		return policy_diag(l->p, r->line, r->column, true,
				   "appraise rule for module reads without appraise_type=imasig: a hash in security.ima, which root can write, satisfies it, so modules off the allowlist load");
	return 0;
}

/* The first measure rule that decides some module reads, or NONE. */
static size_t first_live_measure(const struct lint *l)
{
	size_t i;

	for (i = 0; i < l->p->n_rules; i++)
		if (l->p->rules[i].action == ACTION_MEASURE &&
		    l->coverage[i] != NOT_MODULES && l->decider[i] == NONE)
			return i;
	return NONE;
}

static int lint_measure(struct lint *l, size_t i, size_t first_measure)
{
	struct policy *p = l->p;
	const struct policy_rule *r = &p->rules[i];
	size_t j;

	if (r->action == ACTION_DONT_MEASURE)
		return lint_exemption(l, i, ACTION_MEASURE,
				      "those loads are missing from the measurement list");
	if ((r->flags & PF_TEMPLATE) && !strcmp(r->template_name, "ima") &&
	    policy_diag(p, r->line, r->column, true,
			"template=ima logs SHA-1 digests only: module loads cannot be checked against the allowlist"))
		return -1;
	/* Only the first measure rule for modules asks for the list's entry. */
	if (i != first_measure)
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

/* Warn about rule I, whose facts L holds. */
static int lint_rule(struct lint *l, size_t i, size_t first_measure)
{
	struct policy *p = l->p;
	const struct policy_rule *r = &p->rules[i];
	char decider[160];

	if ((r->flags & PF_APPRAISE_FLAG) &&
	    policy_diag(p, r->line, r->column, true,
			"appraise_flag= is ignored by Linux 6.12"))
		return -1;
	if (!is_appraisal(r) && !is_measurement(r))
		return 0;
	if (r->func == FUNC_MODULE_CHECK && !is_exemption(r) &&
	    !fs_can_hold_modules(r))
		return lint_no_module_fs(p, r);
	if (l->coverage[i] == NOT_MODULES)
		return 0;
	if (l->decider[i] != NONE) {
		/* A dont_ rule that never applies exempts nothing. */
		if (is_exemption(r))
			return 0;
		policy_rule_text(p, &p->rules[l->decider[i]], decider,
				 sizeof(decider));
		return policy_diag(p, r->line, r->column, true,
				   "this %s rule never applies to modules: line %u (%s) decides first every module read it matches",
				   is_appraisal(r) ? "appraise" : "measure",
				   p->rules[l->decider[i]].line, decider);
	}
	if (is_appraisal(r))
		return lint_appraise(l, i);
	return lint_measure(l, i, first_measure);
}

int policy_lint(struct policy *p)
{
	struct lint l = { p, NULL, NULL, NULL };
	size_t i, first_measure;
	int ret = -1;

	if (!p->n_rules)
		return 0;
	l.coverage = malloc(p->n_rules * sizeof(*l.coverage));
	l.decider = malloc(p->n_rules * sizeof(*l.decider));
	l.meant = malloc(p->n_rules * sizeof(*l.meant));
	if (!l.coverage || !l.decider || !l.meant)
		goto out;
	for (i = 0; i < p->n_rules; i++) {
		l.coverage[i] = module_coverage(&p->rules[i]);
		l.decider[i] = l.meant[i] = NONE;
	}
	if (find_deciders(&l, is_appraisal) ||
	    find_deciders(&l, is_measurement) ||
	    find_meant(&l, ACTION_APPRAISE) || find_meant(&l, ACTION_MEASURE))
		goto out;
	first_measure = first_live_measure(&l);
	for (i = 0; i < p->n_rules; i++)
		if (lint_rule(&l, i, first_measure))
			goto out;
	ret = 0;
out:
	free(l.coverage);
	free(l.decider);
	free(l.meant);
	return ret;
}
