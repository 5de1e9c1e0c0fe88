/* gq-appimage-runtime: the head of our type-2 AppImage, written from the AppImage
 * type-2 specification. The file is this static ELF (magic "AI\x02" at offset 8,
 * written after linking) followed by a squashfs image that starts where the ELF
 * ends. Run, it mounts the image with FUSE (squashfuse's low-level library, linked
 * statically with libfuse3 and the decompressors) and executes AppRun from it; with
 * --appimage-extract-and-run or APPIMAGE_EXTRACT_AND_RUN=1, or when FUSE is not
 * available, it extracts the image into a private temporary directory, runs AppRun
 * from there and removes the directory afterwards.
 *
 *   --appimage-extract [PATTERN]  extract (entries matching the fnmatch PATTERN) to ./squashfs-root
 *   --appimage-extract-and-run    see above
 *   --appimage-offset             print the image's offset in this file
 *   --appimage-help, --appimage-version
 */
#define _GNU_SOURCE

#include <squashfuse/ll.h>
#include <squashfuse/traverse.h>
#include <squashfuse/util.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define GQ_RUNTIME_VERSION "1"

/* Sections the specification reserves for update information and signatures; tools
 * that read or fill them find them at their usual size. */
__attribute__((section(".upd_info"), used)) static char update_info[1024];
__attribute__((section(".sha256_sig"), used)) static char signature[1024];
__attribute__((section(".sig_key"), used)) static char signature_key[8192];

static const char *self_path(void) {
    static char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return NULL;
    path[n] = '\0';
    return path;
}

/* The end of the ELF image: the later of the section header table's end and the
 * last segment's end. The squashfs image starts there. */
static long elf_end(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    Elf64_Ehdr eh;
    long end = -1;
    if (fread(&eh, sizeof eh, 1, f) == 1 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64) {
        end = (long)(eh.e_shoff + (Elf64_Off)eh.e_shentsize * eh.e_shnum);
        for (int i = 0; i < eh.e_phnum; ++i) {
            Elf64_Phdr ph;
            if (fseek(f, (long)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize), SEEK_SET) != 0 ||
                fread(&ph, sizeof ph, 1, f) != 1) {
                end = -1;
                break;
            }
            if ((long)(ph.p_offset + ph.p_filesz) > end)
                end = (long)(ph.p_offset + ph.p_filesz);
        }
    }
    char magic[4] = {0};
    if (end > 0 && (fseek(f, end, SEEK_SET) != 0 || fread(magic, 4, 1, f) != 1 || memcmp(magic, "hsqs", 4) != 0))
        end = -1;
    fclose(f);
    return end;
}

/* Extraction ---------------------------------------------------------------- */

static int write_file(sqfs *fs, sqfs_inode *inode, const char *path, mode_t mode) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    static char buf[1 << 20];
    sqfs_off_t off = 0;
    const sqfs_off_t total = (sqfs_off_t)inode->xtra.reg.file_size;
    while (off < total) {
        sqfs_off_t n = total - off < (sqfs_off_t)sizeof buf ? total - off : (sqfs_off_t)sizeof buf;
        if (sqfs_read_range(fs, inode, off, &n, buf) != SQFS_OK || n <= 0 || write(fd, buf, (size_t)n) != n) {
            close(fd);
            return -1;
        }
        off += n;
    }
    if (fchmod(fd, mode) != 0) {
        close(fd);
        return -1;
    }
    return close(fd);
}

/* True if a component of `path` is "." or ".." or empty, or the path is absolute. */
static int unsafe_path(const char *path) {
    const char *p = path;
    for (;;) {
        const char *slash = strchr(p, '/');
        const size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (len == 0 || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
            return 1;
        if (!slash)
            return 0;
        p = slash + 1;
    }
}

/* Extracts the image at `offset` of `image` into `dest` (created); with a pattern,
 * only the entries whose path matches it (and the directories above them). */
static int extract(const char *image, long offset, const char *dest, const char *pattern) {
    sqfs fs;
    if (sqfs_open_image(&fs, image, (size_t)offset) != SQFS_OK)
        return -1;
    if (mkdir(dest, 0700) != 0 && errno != EEXIST) {
        perror(dest);
        sqfs_destroy(&fs);
        return -1;
    }
    sqfs_traverse trv;
    if (sqfs_traverse_open(&trv, &fs, sqfs_inode_root(&fs)) != SQFS_OK) {
        sqfs_destroy(&fs);
        return -1;
    }
    int rc = 0;
    sqfs_err err = SQFS_OK;
    char target[PATH_MAX];
    while (rc == 0 && sqfs_traverse_next(&trv, &err)) {
        if (trv.dir_end)
            continue;
        /* Names come from the image: never let one climb out of dest. */
        if (unsafe_path(trv.path)) {
            fprintf(stderr, "refusing entry %s\n", trv.path);
            rc = -1;
            break;
        }
        const int dir = sqfs_dentry_is_dir(&trv.entry);
        if (pattern && !dir && fnmatch(pattern, trv.path, 0) != 0)
            continue;
        if (snprintf(target, sizeof target, "%s/%s", dest, trv.path) >= (int)sizeof target) {
            rc = -1;
            break;
        }
        sqfs_inode inode;
        if (sqfs_inode_get(&fs, &inode, sqfs_dentry_inode(&trv.entry)) != SQFS_OK) {
            rc = -1;
            break;
        }
        const mode_t mode = inode.base.mode & 07777;
        switch (inode.base.mode & S_IFMT) {
        case S_IFDIR:
            /* Writable for us while we fill it; the image's mode otherwise. */
            if ((mkdir(target, 0700) != 0 && errno != EEXIST) || chmod(target, mode | S_IRWXU) != 0)
                rc = -1;
            break;
        case S_IFREG:
            unlink(target);
            rc = write_file(&fs, &inode, target, mode);
            break;
        case S_IFLNK: {
            size_t size = 0;
            if (sqfs_readlink(&fs, &inode, NULL, &size) != SQFS_OK) {
                rc = -1;
                break;
            }
            char *link = malloc(size + 1);
            ++size;
            if (!link || sqfs_readlink(&fs, &inode, link, &size) != SQFS_OK) {
                free(link);
                rc = -1;
                break;
            }
            unlink(target);
            rc = symlink(link, target);
            free(link);
            break;
        }
        default: /* devices, fifos and sockets have no place in an AppDir */
            break;
        }
        if (rc != 0)
            fprintf(stderr, "cannot extract %s: %s\n", trv.path, strerror(errno));
    }
    if (err != SQFS_OK)
        rc = -1;
    sqfs_traverse_close(&trv);
    sqfs_destroy(&fs);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_tree(const char *path) { nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* Running AppRun ------------------------------------------------------------- */

static void set_environment(const char *appdir, const char *image, const char *argv0) {
    char cwd[PATH_MAX];
    setenv("APPIMAGE", image, 1);
    setenv("APPDIR", appdir, 1);
    setenv("ARGV0", argv0, 1);
    if (getcwd(cwd, sizeof cwd))
        setenv("OWD", cwd, 1);
}

/* argv without the options the runtime consumed, AppRun's path as argv[0]. */
static char **app_argv(int argc, char **argv, char *apprun) {
    char **out = calloc((size_t)argc + 1, sizeof *out);
    int n = 0;
    out[n++] = apprun;
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--appimage-extract-and-run") != 0)
            out[n++] = argv[i];
    out[n] = NULL;
    return out;
}

static pid_t g_child;
static void forward_signal(int sig) {
    if (g_child > 0)
        kill(g_child, sig);
}

static int extract_and_run(const char *image, long offset, int argc, char **argv) {
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/appimage_extracted_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) { /* mode 0700: private to this user */
        perror("mkdtemp");
        return 1;
    }
    if (extract(image, offset, dir, NULL) != 0) {
        remove_tree(dir);
        return 1;
    }
    char apprun[PATH_MAX + 16];
    snprintf(apprun, sizeof apprun, "%s/AppRun", dir);
    set_environment(dir, image, argv[0]);
    char **args = app_argv(argc, argv, apprun);
    /* A child, so that we are still here to remove the directory when it ends. */
    g_child = fork();
    if (g_child == 0) {
        execv(apprun, args);
        perror(apprun);
        _exit(127);
    }
    int status = 0;
    if (g_child > 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = forward_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        while (waitpid(g_child, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (!getenv("APPIMAGE_EXTRACT_AND_RUN_NO_CLEANUP"))
        remove_tree(dir);
    free(args);
    if (g_child < 0)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* FUSE ------------------------------------------------------------------------ */

static void *serve(void *session) {
    fuse_session_loop((struct fuse_session *)session);
    return NULL;
}

/* In the child: mount, say so on `ready`, serve until every holder of the keep-alive
 * pipe (the app and its children) is gone, then unmount. */
static int mount_and_serve(const char *image, long offset, const char *mnt, int ready, int keepalive) {
    /* Ctrl-C, or a service manager stopping the whole group, is for the app: we go
     * when it has gone, not while it still reads its files. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    sqfs_ll *ll = sqfs_ll_open(image, (size_t)offset);
    if (!ll)
        return 1;
    struct fuse_lowlevel_ops ops;
    memset(&ops, 0, sizeof ops);
    ops.getattr = sqfs_ll_op_getattr;
    ops.opendir = sqfs_ll_op_opendir;
    ops.releasedir = sqfs_ll_op_releasedir;
    ops.readdir = sqfs_ll_op_readdir;
    ops.lookup = sqfs_ll_op_lookup;
    ops.open = sqfs_ll_op_open;
    ops.create = sqfs_ll_op_create;
    ops.release = sqfs_ll_op_release;
    ops.read = sqfs_ll_op_read;
    ops.readlink = sqfs_ll_op_readlink;
    ops.listxattr = sqfs_ll_op_listxattr;
    ops.getxattr = sqfs_ll_op_getxattr;
    ops.forget = sqfs_ll_op_forget;
    ops.statfs = stfs_ll_op_statfs;
    char *fargv[] = {"gq-appimage", "-o", "ro,nodev,nosuid,subtype=gq-appimage", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, fargv);
    sqfs_ll_chan ch;
    if (sqfs_ll_mount(&ch, mnt, &args, &ops, sizeof ops, ll) != SQFS_OK) {
        sqfs_ll_destroy(ll);
        return 1;
    }
    pthread_t loop;
    if (pthread_create(&loop, NULL, serve, ch.session) != 0) {
        sqfs_ll_unmount(&ch, mnt);
        return 1;
    }
    if (write(ready, "1", 1) != 1)
        _exit(1);
    close(ready);
    char c;
    for (;;) {
        const ssize_t n = read(keepalive, &c, 1);
        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    fuse_session_exit(ch.session);
    fuse_session_unmount(ch.session); /* the loop's read fails now, and it returns */
    pthread_join(loop, NULL);
    fuse_session_destroy(ch.session);
    rmdir(mnt);
    sqfs_ll_destroy(ll);
    return 0;
}

/* Mounts and, in this process, becomes AppRun. Returns only if FUSE is not usable. */
static void mount_and_exec(const char *image, long offset, int argc, char **argv) {
    char mnt[] = "/tmp/.mount_gqXXXXXX";
    int ready[2], keepalive[2];
    if (access("/dev/fuse", R_OK | W_OK) != 0 || !mkdtemp(mnt))
        return;
    if (pipe2(ready, O_CLOEXEC) != 0 || pipe(keepalive) != 0) {
        rmdir(mnt);
        return;
    }
    /* The server is a grandchild: its parent exits at once, so it is not a child (or
     * a zombie) of the app we become. */
    pid_t pid = fork();
    if (pid == 0) {
        const pid_t server = fork();
        if (server != 0)
            _exit(server < 0 ? 1 : 0);
        close(ready[0]);
        close(keepalive[1]);
        setsid();
        _exit(mount_and_serve(image, offset, mnt, ready[1], keepalive[0]));
    }
    close(ready[1]);
    close(keepalive[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    char ok = 0;
    /* EOF here: the server failed before mounting (or could not be started). */
    if (pid < 0 || read(ready[0], &ok, 1) != 1 || ok != '1') {
        rmdir(mnt);
        close(keepalive[1]);
        return;
    }
    close(ready[0]);
    /* keepalive[1] stays open across exec: the mount lives while the app (or a child
     * it started) holds it. */
    char apprun[PATH_MAX + 16];
    snprintf(apprun, sizeof apprun, "%s/AppRun", mnt);
    set_environment(mnt, image, argv[0]);
    execv(apprun, app_argv(argc, argv, apprun));
    perror(apprun);
    exit(127);
}

int main(int argc, char **argv) {
    (void)update_info;
    (void)signature;
    (void)signature_key;
    const char *image = self_path();
    const long offset = image ? elf_end(image) : -1;
    const char *opt = argc > 1 ? argv[1] : "";
    if (strcmp(opt, "--appimage-help") == 0) {
        printf("AppImage runtime options:\n"
               "  --appimage-extract [PATTERN]  extract the contents to ./squashfs-root\n"
               "  --appimage-extract-and-run    extract to a temporary directory, run, remove it\n"
               "                                (also APPIMAGE_EXTRACT_AND_RUN=1)\n"
               "  --appimage-offset             print the offset of the squashfs image\n"
               "  --appimage-version            print the runtime's version\n");
        return 0;
    }
    if (strcmp(opt, "--appimage-version") == 0) {
        printf("gq-appimage-runtime %s (type 2)\n", GQ_RUNTIME_VERSION);
        return 0;
    }
    if (offset < 0) {
        fprintf(stderr, "%s: no squashfs image appended to this runtime\n", image ? image : argv[0]);
        return 1;
    }
    if (strcmp(opt, "--appimage-offset") == 0) {
        printf("%ld\n", offset);
        return 0;
    }
    if (strcmp(opt, "--appimage-extract") == 0) {
        const int rc = extract(image, offset, "squashfs-root", argc > 2 ? argv[2] : NULL);
        return rc == 0 ? 0 : 1;
    }
    const char *env = getenv("APPIMAGE_EXTRACT_AND_RUN");
    if (strcmp(opt, "--appimage-extract-and-run") == 0 || (env && strcmp(env, "1") == 0))
        return extract_and_run(image, offset, argc, argv);
    if (strncmp(opt, "--appimage-", 11) == 0) {
        fprintf(stderr, "unknown runtime option %s (see --appimage-help)\n", opt);
        return 2;
    }
    mount_and_exec(image, offset, argc, argv);
    fprintf(stderr, "FUSE is not available here; extracting to a temporary directory instead "
                    "(as --appimage-extract-and-run does)\n");
    return extract_and_run(image, offset, argc, argv);
}
