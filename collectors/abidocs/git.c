// SPDX-License-Identifier: GPL-2.0-only
/*
 * The documentation of a git revision (Documentation/ABI and the sysctl
 * documents), and the commit a kernel tree was checked out from, through
 * libgit2.
 *
 * Only objects are read: the work tree, the index and HEAD of the repository
 * are never written, so this is safe on a tree someone is working in.  The
 * walk itself is collect.c's (abidocs__walk()); here are the three things it
 * asks of a tree (kind, list, read), answered from git tree objects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>

#include "lib/print.h"
#include "abidocs.h"
#include "tree.h"

/* The Documentation tree of one commit. */
struct git_docs {
	git_repository *repo;
	git_tree *docs;
	char where[4096];	/* "REPO@REV:Documentation" */
};

static void shutdown_libgit2(void)
{
	git_libgit2_shutdown();
}

/* libgit2 is initialised once, on first use, and shut down at exit. */
static int init_libgit2(void)
{
	static bool ready;

	if (ready)
		return 0;
	if (git_libgit2_init() < 0) {
		pr_err("libgit2: %s", git_error_last()->message);
		return -ENOMEM;
	}
	atexit(shutdown_libgit2);
	ready = true;
	return 0;
}

/* Report libgit2's last error, after @what, as -errno. */
static int git_fail(const char *what, int gerr)
{
	const git_error *e = git_error_last();

	if (e && e->klass == GIT_ERROR_NOMEMORY)
		return -ENOMEM;
	pr_err("%s: %s", what, e ? e->message : "libgit2 failed");
	return gerr == GIT_ENOTFOUND ? -ENOENT : -EIO;
}

/* A submodule is not part of this commit's documentation: absent. */
static enum abidocs_type entry_type(const git_tree_entry *e)
{
	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return ABIDOCS_DIR;
	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		return ABIDOCS_LINK;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
		return ABIDOCS_FILE;
	return ABIDOCS_ABSENT;
}

/* Only "not found" is absent: a failed lookup is no answer. */
static int git_kind(void *ctx, const char *rel)
{
	struct git_docs *g = ctx;
	int kind = ABIDOCS_ABSENT, err;
	git_tree_entry *e;

	err = git_tree_entry_bypath(&e, g->docs, rel);
	if (err == GIT_ENOTFOUND)
		return ABIDOCS_ABSENT;
	if (err)
		return git_fail(g->where, err);
	kind = entry_type(e);
	git_tree_entry_free(e);
	return kind;
}

/*
 * A submodule is left out.  A symbolic link (a blob of mode 120000, whose
 * contents are the target) is listed as one, and the walk skips it with a
 * warning, as it does a link on disk.
 */
static bool listed(const git_tree_entry *e)
{
	return git_tree_entry_name(e)[0] != '.' &&
	       entry_type(e) != ABIDOCS_ABSENT;
}

/* The object @rel names under the ABI tree, of @type; 0 or -errno. */
static int lookup_object(struct git_docs *g, const char *rel,
			 git_object_t type, git_object **obj)
{
	int err = git_object_lookup_bypath(obj, (git_object *)g->docs, rel, type);

	return err ? git_fail(g->where, err) : 0;
}

static int git_list(void *ctx, const char *rel, struct abidocs_dirent **out,
		    size_t *nr)
{
	struct git_docs *g = ctx;
	struct abidocs_dirent *v;
	git_tree *tree = NULL;
	size_t i, n = 0, count;
	int err;

	err = lookup_object(g, rel, GIT_OBJECT_TREE, (git_object **)&tree);
	if (err)
		return err;
	count = git_tree_entrycount(tree);
	v = calloc(count + 1, sizeof(*v));
	if (!v) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < count; i++) {
		const git_tree_entry *te = git_tree_entry_byindex(tree, i);

		if (!listed(te))
			continue;
		v[n].type = entry_type(te);
		v[n].name = strdup(git_tree_entry_name(te));
		if (!v[n].name) {
			err = -ENOMEM;
			goto out_free_names;
		}
		n++;
	}
	abidocs__dirents_sort(v, n);
	*out = v;
	*nr = n;
	goto out;

out_free_names:
	abidocs__dirents_free(v, n);
out:
	git_tree_free(tree);
	return err;
}

/* A copy: nothing is borrowed from libgit2 once the blob is freed. */
static int git_read(void *ctx, const char *rel, char **buf, size_t *len)
{
	struct git_docs *g = ctx;
	git_blob *blob = NULL;
	git_object_size_t size;
	int err;

	err = lookup_object(g, rel, GIT_OBJECT_BLOB, (git_object **)&blob);
	if (err)
		return err;
	size = git_blob_rawsize(blob);
	if (size > ABIDOCS_MAX_FILE) {
		pr_err("%s/%s: larger than %s, the most a documentation file may hold",
		       g->where, rel, ABIDOCS_MAX_FILE_TEXT);
		git_blob_free(blob);
		return -EFBIG;
	}
	*buf = malloc(size + 1);
	if (*buf) {
		memcpy(*buf, git_blob_rawcontent(blob), size);
		(*buf)[size] = '\0';
		*len = size;
	} else {
		err = -ENOMEM;
	}
	git_blob_free(blob);
	return err;
}

/* Open @repo and find the commit @rev names, reporting what went wrong. */
static int open_commit(const char *repo, const char *rev, git_repository **r,
		       git_commit **c)
{
	git_object *obj = NULL;
	int err;

	err = git_repository_open_ext(r, repo, 0, NULL);
	if (err == GIT_ENOTFOUND) {
		pr_err("%s: not a git repository", repo);
		return -ENOENT;
	}
	if (err)
		return git_fail(repo, err);
	err = git_revparse_single(&obj, *r, rev);
	if (err == GIT_ENOTFOUND || err == GIT_EINVALIDSPEC) {
		pr_err("%s: revision '%s' not found", repo, rev);
		return -ENOENT;
	}
	if (err == GIT_EAMBIGUOUS) {
		pr_err("%s: revision '%s' is ambiguous", repo, rev);
		return -EINVAL;
	}
	if (err)
		return git_fail(repo, err);
	err = git_object_peel((git_object **)c, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err) {
		pr_err("%s: revision '%s' is not a commit", repo, rev);
		return -EINVAL;
	}
	return 0;
}

/*
 * The commit's Documentation tree into @g->docs, which must hold the
 * Documentation/ABI tree.
 */
static int find_docs_tree(struct git_docs *g, git_commit *c, const char *repo,
			  const char *rev)
{
	git_tree_entry *e = NULL, *docs = NULL;
	git_tree *root = NULL;
	int err;

	err = git_commit_tree(&root, c);
	if (err)
		return git_fail(repo, err);
	err = git_tree_entry_bypath(&e, root, "Documentation/ABI");
	if (!err)
		err = git_tree_entry_bypath(&docs, root, "Documentation");
	if (!err && git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		err = git_tree_lookup(&g->docs, g->repo, git_tree_entry_id(docs));
		if (err)
			err = git_fail(repo, err);
	} else if (!err || err == GIT_ENOTFOUND) {
		pr_err("%s@%s: no Documentation/ABI in that tree", repo, rev);
		err = -ENOENT;
	} else {
		err = git_fail(repo, err);
	}
	git_tree_entry_free(docs);
	git_tree_entry_free(e);
	git_tree_free(root);
	return err;
}

int abidocs__collect_git(const char *repo, const char *rev,
			 struct snapshot *s, struct abidocs_stats *st)
{
	struct git_docs g = { 0 };
	struct abidocs_tree t = {
		.where = g.where, .abi = "ABI", .ctx = &g,
		.kind = git_kind, .list = git_list, .read = git_read,
	};
	char id[GIT_OID_HEXSZ + 1];
	git_commit *c = NULL;
	int err;

	s->docs.collected = true;
	err = init_libgit2();
	if (err)
		return err;
	snprintf(g.where, sizeof(g.where), "%s@%s:Documentation", repo, rev);
	err = open_commit(repo, rev, &g.repo, &c);
	if (err)
		goto out;
	err = find_docs_tree(&g, c, repo, rev);
	if (err)
		goto out;
	err = abidocs__walk(&t, s, st);
	if (err)
		goto out;
	git_oid_tostr(id, sizeof(id), git_commit_id(c));
	free(s->kernel.git);
	s->kernel.git = strdup(id);
	if (!s->kernel.git)
		err = -ENOMEM;
out:
	git_tree_free(g.docs);
	git_commit_free(c);
	git_repository_free(g.repo);
	return err;
}

/* Whether tracked files differ from HEAD, as 'git diff-index HEAD' says. */
static int tracked_changes(git_repository *repo, git_commit *head,
			   const char *dir, bool *dirty)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_diff *diff = NULL;
	git_tree *tree = NULL;
	int err;

	/* no untracked files; submodules are the business of their own repo */
	opts.flags = GIT_DIFF_IGNORE_SUBMODULES | GIT_DIFF_SKIP_BINARY_CHECK;
	err = git_commit_tree(&tree, head);
	if (!err)
		err = git_diff_tree_to_workdir_with_index(&diff, repo, tree, &opts);
	if (err)
		err = git_fail(dir, err);
	else
		*dirty = git_diff_num_deltas(diff) > 0;
	git_diff_free(diff);
	git_tree_free(tree);
	return err;
}

/* A work tree whose top is a kernel tree, not some project holding one. */
static bool is_kernel_work_tree(git_repository *repo)
{
	const char *top = git_repository_workdir(repo);
	char path[4096];
	struct stat st;

	if (!top)
		return false;
	snprintf(path, sizeof(path), "%sDocumentation/ABI", top);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int abidocs__git_head(const char *dir, char **id)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_repository *repo = NULL;
	git_commit *head = NULL;
	git_object *obj = NULL;
	bool dirty = false;
	int err;

	*id = NULL;
	err = init_libgit2();
	if (err)
		return err;
	err = git_repository_open_ext(&repo, dir, 0, NULL);
	if (err == GIT_ENOTFOUND)
		return 0;
	if (err)
		return git_fail(dir, err);
	if (!is_kernel_work_tree(repo))
		goto out;
	/* an unborn branch has no commit yet: nothing to record */
	err = git_revparse_single(&obj, repo, "HEAD");
	if (err == GIT_ENOTFOUND || err == GIT_EUNBORNBRANCH) {
		err = 0;
		goto out;
	}
	if (!err)
		err = git_object_peel((git_object **)&head, obj, GIT_OBJECT_COMMIT);
	if (err) {
		err = git_fail(dir, err);
		goto out;
	}
	err = tracked_changes(repo, head, dir, &dirty);
	if (err)
		goto out;
	git_oid_tostr(hex, sizeof(hex), git_commit_id(head));
	if (asprintf(id, "%s%s", hex, dirty ? "-dirty" : "") < 0) {
		*id = NULL;
		err = -ENOMEM;
	}
out:
	git_commit_free(head);
	git_object_free(obj);
	git_repository_free(repo);
	return err;
}
