// SPDX-License-Identifier: GPL-2.0
/* module-file.c - read, decompress, find the signature, strip and hash. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf-reader.h"
#include "module-file.h"
#include "util.h"

extern char **environ;

/*
 * The end of a signed module, as the kernel's <linux/module_signature.h>
 * lays it out: signer's name, key id, signature (sig_len bytes), then
 * a 12-byte information block, then the marker.  The block is read by
 * offsets rather than re-declared: algo, hash, id_type, signer_len,
 * key_id_len, 3 bytes of padding, sig_len (32-bit big endian).
 */
#define SIG_MARKER "~Module signature appended~\n"
#define SIG_MARKER_LEN (sizeof(SIG_MARKER) - 1)
#define SIG_INFO_LEN 12
#define SIG_INFO_ID_TYPE 2
#define SIG_INFO_SIGNER_LEN 3
#define SIG_INFO_KEY_ID_LEN 4
#define SIG_INFO_SIG_LEN 8
#define PKEY_ID_PKCS7 2

bool module_signature_find(const unsigned char *image, size_t len,
			   size_t *content_len, bool *malformed)
{
	const unsigned char *info;
	uint32_t sig_len;
	size_t i;

	*content_len = len;
	*malformed = false;
	if (len < SIG_MARKER_LEN ||
	    memcmp(image + len - SIG_MARKER_LEN, SIG_MARKER, SIG_MARKER_LEN))
		return false;
	*malformed = true;
	*content_len = len - SIG_MARKER_LEN;
	if (*content_len < SIG_INFO_LEN)
		return true;
	info = image + *content_len - SIG_INFO_LEN;
	sig_len = (uint32_t)info[SIG_INFO_SIG_LEN] << 24 |
		  (uint32_t)info[SIG_INFO_SIG_LEN + 1] << 16 |
		  (uint32_t)info[SIG_INFO_SIG_LEN + 2] << 8 |
		  info[SIG_INFO_SIG_LEN + 3];
	if (sig_len == 0 || sig_len > *content_len - SIG_INFO_LEN)
		return true;
	*content_len -= SIG_INFO_LEN + sig_len;
	/* The kernel takes PKCS#7 only, with everything but it zero. */
	for (i = 0; i < SIG_INFO_SIG_LEN; i++)
		if (info[i] != (i == SIG_INFO_ID_TYPE ? PKEY_ID_PKCS7 : 0))
			return true;
	*malformed = false;
	return true;
}

void module_file_from_buffer(unsigned char *file, size_t len,
			     size_t max_image, struct module_file *m)
{
	size_t consumed, offset;
	const char *why = NULL;

	memset(m, 0, sizeof(*m));
	m->file = file;
	m->file_len = len;
	m->image = file;
	m->image_len = len;
	m->comp = compression_detect(file, len);
	if (m->comp != COMP_GZIP && m->comp != COMP_XZ && m->comp != COMP_ZSTD)
		m->comp = COMP_NONE;
	if (m->comp != COMP_NONE) {
		unsigned char *image;
		size_t image_len;

		why = decompress(m->comp, file, len, max_image, &image,
				 &image_len, &consumed, &offset);
		if (why) {
			m->problem = "does not decompress";
		} else if (consumed != len) {
			free(image);
			m->problem = "bytes after the compressed stream";
		} else {
			m->image = image;
			m->image_len = image_len;
		}
	} else if (!elf_looks_like(file, len)) {
		m->problem = "not an ELF file";
	}
	m->is_signed = module_signature_find(m->image, m->image_len,
					     &m->content_len,
					     &m->bad_signature);
}

int module_file_read(const char *path, struct module_file *m)
{
	unsigned char *buf;
	size_t len;

	memset(m, 0, sizeof(*m));
	if (read_whole_file(path, &INPUT_MODULE, &buf, &len))
		return -1;
	module_file_from_buffer(buf, len, MODULE_MAX_IMAGE, m);
	return 0;
}

void module_file_free(struct module_file *m)
{
	if (m->image != m->file)
		free(m->image);
	free(m->file);
	memset(m, 0, sizeof(*m));
}

const char *module_strip_program(void)
{
	const char *strip = getenv("STRIP");

	return strip && *strip ? strip : "strip";
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static char *temp_name(void)
{
	const char *dir = getenv("TMPDIR");
	char *name;

	if (!dir || !*dir)
		dir = "/tmp";
	name = malloc(strlen(dir) + sizeof("/modhash.XXXXXX"));
	if (name)
		sprintf(name, "%s/modhash.XXXXXX", dir);
	return name;
}

int module_stripped_digest(const struct allowlist *al,
			   const unsigned char *content, size_t len,
			   const char *strip, const char *name,
			   unsigned char *out)
{
	char *in_name = temp_name(), *out_name = temp_name();
	char *argv[] = { (char *)strip, "--strip-debug", "-o", out_name,
			 in_name, NULL };
	unsigned char *stripped = NULL;
	size_t stripped_len;
	int in_fd = -1, out_fd = -1, status, ret = -1, err;
	posix_spawn_file_actions_t actions;
	pid_t pid;

	if (!in_name || !out_name) {
		fail_at(name, "out of memory");
		goto out;
	}
	in_fd = mkstemp(in_name);
	out_fd = in_fd < 0 ? -1 : mkstemp(out_name);
	if (in_fd < 0 || out_fd < 0 || write_all(in_fd, content, len)) {
		fail_at(name, "cannot write a temporary copy to strip: %s",
			strerror(errno));
		goto out;
	}
	err = posix_spawn_file_actions_init(&actions);
	if (!err) {
		/* What strip says about a file it cannot read is our verdict. */
		err = posix_spawn_file_actions_addopen(&actions, STDERR_FILENO,
						       "/dev/null", O_WRONLY, 0);
		if (!err)
			err = posix_spawnp(&pid, strip, &actions, NULL, argv,
					   environ);
		posix_spawn_file_actions_destroy(&actions);
	}
	if (err) {
		fail_at(name, "cannot run %s: %s", strip, strerror(err));
		goto out;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ret = 1;	/* strip cannot read it: not our error */
		goto out;
	}
	if (read_whole_file(out_name, &INPUT_MODULE, &stripped, &stripped_len))
		goto out;
	ret = allowlist_digest(al, stripped, stripped_len, out);
	if (ret)
		fail_at(name, "cannot hash with %s", hash_algo_name(al->algo));
out:
	free(stripped);
	if (in_fd >= 0) {
		close(in_fd);
		unlink(in_name);
	}
	if (out_fd >= 0) {
		close(out_fd);
		unlink(out_name);
	}
	free(in_name);
	free(out_name);
	return ret;
}
