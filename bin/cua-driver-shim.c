/* cua-driver shim (native): forwards argv, env, cwd and stdin to the cua-contract session over the
 * unix socket beside this executable and mirrors stdout, stderr and the exit code or signal back.
 * It runs once per driver call, so it is plain C with no dependencies (the node shim is the fallback).
 * Frames: 1 byte type, 4 bytes big-endian length, payload. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

extern char **environ;

static int put_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

static char *obuf;
static size_t olen, ocap;

static void frame(char type, const char *payload, size_t len) {
  if (olen + len + 5 > ocap) {
    ocap = (olen + len + 5) * 2 + 4096;
    obuf = realloc(obuf, ocap);
    if (!obuf) _exit(1);
  }
  obuf[olen] = type;
  obuf[olen + 1] = (char)((len >> 24) & 255);
  obuf[olen + 2] = (char)((len >> 16) & 255);
  obuf[olen + 3] = (char)((len >> 8) & 255);
  obuf[olen + 4] = (char)(len & 255);
  memcpy(obuf + olen + 5, payload, len);
  olen += len + 5;
}

static int flush_frames(int fd) {
  int rc = put_all(fd, obuf, olen);
  olen = 0;
  return rc;
}

static void socket_path(const char *argv0, char *out, size_t cap) {
  const char *override = getenv("CUA_CONTRACT_SHIM_SOCKET_OVERRIDE");
  if (override && *override) {
    snprintf(out, cap, "%s", override);
    return;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) self[n] = 0;
  else snprintf(self, sizeof self, "%s", argv0);
  char *slash = strrchr(self, '/');
  if (slash) *slash = 0;
  else snprintf(self, sizeof self, ".");
  snprintf(out, cap, "%s/s.sock", self);
}

int main(int argc, char **argv) {
  char path[PATH_MAX];
  socket_path(argv[0], path, sizeof path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (fd < 0 || strlen(path) >= sizeof addr.sun_path) {
    fprintf(stderr, "cua-driver shim: bad socket path %s\n", path);
    return 1;
  }
  strcpy(addr.sun_path, path);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    fprintf(stderr, "cua-driver shim: cannot reach the cua-contract session at %s: %s\n", path, strerror(errno));
    return 1;
  }
  signal(SIGPIPE, SIG_IGN);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
  frame('D', cwd, strlen(cwd));
  frame('T', isatty(0) ? "1" : "0", 1);
  for (int i = 1; i < argc; i++) frame('A', argv[i], strlen(argv[i]));
  for (char **e = environ; *e; e++) frame('E', *e, strlen(*e));
  frame('G', "", 0);
  if (flush_frames(fd) != 0) return 1;

  char *in = NULL;
  size_t inlen = 0, incap = 0;
  int want_stdin = 0, stdin_open = 1;
  char buf[65536];
  for (;;) {
    struct pollfd fds[2] = {{fd, POLLIN, 0}, {0, POLLIN, 0}};
    int nfds = (want_stdin && stdin_open) ? 2 : 1;
    if (poll(fds, (nfds_t)nfds, -1) < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    if (nfds == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t n = read(0, buf, sizeof buf);
      if (n > 0) frame('I', buf, (size_t)n);
      else if (n == 0 || errno != EINTR) {
        frame('Z', "", 0);
        stdin_open = 0;
      }
      if (flush_frames(fd) != 0) return 1;
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fprintf(stderr, "cua-driver shim: the cua-contract session closed the connection without an exit status\n");
      return 1;
    }
    if (inlen + (size_t)n > incap) {
      incap = (inlen + (size_t)n) * 2;
      in = realloc(in, incap);
      if (!in) return 1;
    }
    memcpy(in + inlen, buf, (size_t)n);
    inlen += (size_t)n;
    size_t off = 0;
    while (inlen - off >= 5) {
      const unsigned char *h = (const unsigned char *)in + off;
      size_t len = ((size_t)h[1] << 24) | ((size_t)h[2] << 16) | ((size_t)h[3] << 8) | (size_t)h[4];
      if (inlen - off < 5 + len) break;
      const char *body = in + off + 5;
      char type = (char)h[0];
      off += 5 + len;
      if (type == 'O') put_all(1, body, len);
      else if (type == 'R') put_all(2, body, len);
      else if (type == 'W') want_stdin = 1;
      else if (type == 'X' || type == 'S') {
        char num[32];
        size_t k = len < sizeof num - 1 ? len : sizeof num - 1;
        memcpy(num, body, k);
        num[k] = 0;
        int value = atoi(num);
        if (type == 'X') return value;
        signal(value, SIG_DFL);
        raise(value);
        return 128 + value;
      }
    }
    memmove(in, in + off, inlen - off);
    inlen -= off;
  }
}
