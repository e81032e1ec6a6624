// SPDX-License-Identifier: GPL-2.0
/*
 * policy-lint.c - warnings about IMA policy rules that make the built-in
 * module allowlist useless or unsafe (policy.h, policy_lint).
 *
 * IMA takes, for each kind of action (measure, appraise, hash), the first
 * rule that matches; a module file is read with func MODULE_CHECK and mask
 * MAY_READ.  A rule without func= matches every file hook, MODULE_CHECK
 * included; conditions (mask, fsmagic, uid, LSM labels...) make it match
 * some module reads only.
 */
#include <stdint.h>
#include <string.h>

#include "policy.h"

enum coverage { NOT_MODULES, SOME_MODULES, ALL_MODULES };

static enum coverage module_coverage(const struct policy_rule *r)
{
	if (r->func != FUNC_NONE && r->func != FUNC_MODULE_CHECK)
		return NOT_MODULES;
	if ((r->flags & (PF_MASK | PF_INMASK)) && !(r->mask & POLICY_MAY_READ))
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

/* The first rule after I of action ACTION that matches module reads. */
static const struct policy_rule *next_module_rule(const struct policy *p,
						  size_t i,
						  enum policy_action action)
{
	for (i++; i < p->n_rules; i++)
		if (p->rules[i].action == action &&
		    module_coverage(&p->rules[i]) != NOT_MODULES)
			return &p->rules[i];
	return NULL;
}

/*
 * Rule I is a dont_ rule matching module reads: warn if a rule of ACTION
 * for modules follows, as the modules rule I matches escape it (EFFECT).
 */
static int lint_exemption(struct policy *p, size_t i, enum policy_action action,
			  const char *effect)
{
	const struct policy_rule *r = &p->rules[i];
	const struct policy_rule *later = next_module_rule(p, i, action);

	if (!later)
		return 0;
	return policy_diag(p, r->line, r->column, true,
			   "%s matches module reads before the %s rule on line %u: %s",
			   action == ACTION_APPRAISE ? "dont_appraise" : "dont_measure",
			   action == ACTION_APPRAISE ? "appraise" : "measure",
			   later->line, effect);
}

static int lint_appraise(struct policy *p, size_t i)
{
	const struct policy_rule *r = &p->rules[i];
	size_t j;

	if (r->action == ACTION_DONT_APPRAISE)
		return lint_exemption(p, i, ACTION_APPRAISE,
				      "the modules it matches are never appraised, the allowlist is not consulted");
	for (j = 0; j < i; j++) {
		const struct policy_rule *first = &p->rules[j];

		if (first->action == ACTION_APPRAISE &&
		    module_coverage(first) == ALL_MODULES)
			return policy_diag(p, r->line, r->column, true,
					   "this appraise rule never applies to modules: the rule on line %u decides every module read first",
					   first->line);
	}
	if (!(r->flags & PF_DIGSIG))
		return policy_diag(p, r->line, r->column, true,
				   "appraise rule for module reads without appraise_type=imasig: a hash in security.ima, which root can write, satisfies it, so modules off the allowlist load");
	return 0;
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
	if (next_module_rule(p, SIZE_MAX, ACTION_MEASURE) != r)
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

int policy_lint(struct policy *p)
{
	size_t i;

	for (i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];
		int rc = 0;

		if ((r->flags & PF_APPRAISE_FLAG) &&
		    policy_diag(p, r->line, r->column, true,
				"appraise_flag= is ignored by Linux 6.12"))
			return -1;
		if (module_coverage(r) == NOT_MODULES)
			continue;
		if (is_appraisal(r))
			rc = lint_appraise(p, i);
		else if (is_measurement(r))
			rc = lint_measure(p, i);
		if (rc)
			return -1;
	}
	return 0;
}
