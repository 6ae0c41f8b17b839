// registry.tsv, claims.tsv and ours.tsv compiled into every binary as they
// are: the assembler's .incbin reads each file at compile time (its path
// from the build, ATTNPROP_REGISTRY_TSV, _CLAIMS_TSV, _OURS_TSV), and a NUL follows
// it. No build step parses or rewrites them; a changed file recompiles this
// one (OBJECT_DEPENDS, properties/CMakeLists.txt).
#define ATTNPROP_EMBED_FILE(symbol, path) \
  __asm__(".pushsection .rodata\n"        \
          ".global " #symbol "\n"        \
          ".type " #symbol ", @object\n" \
          #symbol ":\n"                  \
          ".incbin \"" path "\"\n"       \
          ".byte 0\n"                    \
          ".popsection\n")

ATTNPROP_EMBED_FILE(attnprop_registry_tsv, ATTNPROP_REGISTRY_TSV);
ATTNPROP_EMBED_FILE(attnprop_claims_tsv, ATTNPROP_CLAIMS_TSV);
ATTNPROP_EMBED_FILE(attnprop_ours_tsv, ATTNPROP_OURS_TSV);

extern "C" const char attnprop_registry_tsv[];
extern "C" const char attnprop_claims_tsv[];
extern "C" const char attnprop_ours_tsv[];

namespace attnprop {
extern const char* const kRegistryTsv;
extern const char* const kClaimsTsv;
extern const char* const kOursTsv;
const char* const kRegistryTsv = attnprop_registry_tsv;
const char* const kClaimsTsv = attnprop_claims_tsv;
const char* const kOursTsv = attnprop_ours_tsv;
}  // namespace attnprop
