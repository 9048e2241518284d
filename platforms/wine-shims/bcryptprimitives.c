/*
 * ProcessPrng, which Rust's standard library takes its random numbers from on Windows 10+, for
 * wine 8.0 (Debian 12), which has no bcryptprimitives.dll: the same system random numbers
 * through bcrypt's BCryptGenRandom, which wine has. Only the emulated test runs load it
 * (build.gradle's wineShims); Windows itself has the real DLL.
 */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
    if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) {
      return FALSE;
    }
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
