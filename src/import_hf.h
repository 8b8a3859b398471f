/* import_hf.h — Hugging Face config.json -> model spec (Lua text).
 *
 * Owns the mapping from the config.json keys of supported families to the
 * model spec fields (spec.h).  Uses cJSON to parse (no hand-written parser)
 * and spec (the produced text is validated by loading it in the sandbox).
 *
 * Families (model_type): llama, mistral, mixtral, qwen2, qwen3, qwen3_moe,
 * phi3 (Phi-3, Phi-3.5, Phi-4), gemma2, gemma3 (text_config of the
 * multimodal config) / gemma3_text, deepseek_v2 / deepseek_v3, gpt_oss.  Key mapping (HF -> spec):
 *   num_hidden_layers -> layers, hidden_size -> d_model, intermediate_size
 *   -> d_ff, num_attention_heads -> heads, num_key_value_heads -> kv_heads,
 *   head_dim -> head_dim (when absent: the family's transformers default,
 *   noted -- qwen3 128, gemma2/gemma3 256, gpt_oss 64 -- or hidden /
 *   heads where the class derives it), vocab_size -> vocab,
 *   max_position_embeddings -> max_context (rope_scaling applied as vLLM's
 *   max_model_len rule, import_hf.c rope_context, with a note),
 *   tie_word_embeddings ->
 *   tied_embeddings; hidden_act "silu" -> mlp "swiglu", Gemma's
 *   hidden_activation "gelu_pytorch_tanh" -> "geglu" (all listed families
 *   use a gated 3-matrix MLP).
 *   MoE: num_local_experts (mixtral, gpt_oss), n_routed_experts
 *   (deepseek) or num_experts (qwen3_moe) -> experts; num_experts_per_tok -> top_k; n_shared_experts ->
 *   shared_experts; moe_intermediate_size -> d_ff_expert (gpt_oss:
 *   intermediate_size); first_k_dense_replace -> dense_layers; qwen3_moe
 *   only with every layer routed (decoder_sparse_step 1) but leading
 *   mlp_only_layers [0, ..., k-1] -> dense_layers = k (dense MLP of
 *   intermediate_size, Qwen3MoeMLP); other lists are refused.
 *   MLA (deepseek): kv_lora_rank, q_lora_rank, qk_rope_head_dim,
 *   qk_nope_head_dim, v_head_dim, attention = "mla".  Missing
 *   n_shared_experts, first_k_dense_replace, q_lora_rank take transformers'
 *   defaults (deepseek_v2 2, 0, 1536; deepseek_v3 1, 3, 1536) with a note;
 *   q_lora_rank null = full-rank q (import_hf.c deepseek_key).
 *   Windows (import_hf.c emit_window, one rule for every family): an
 *   explicit layer_types list decides which layers slide (transformers
 *   uses it as given and derives it only when absent) and is written as
 *   no window (all full), a window on every layer, sliding_window_pattern P
 *   (P-1 sliding then one full, repeating) or first_sliding_layer N (N full
 *   then sliding); any other list is refused naming the entry.  Without it,
 *   each family's own derivation: mistral, mixtral, phi3 every layer (their
 *   models ignore layer_types, so a list saying otherwise is refused);
 *   qwen2/3 only when use_sliding_window is true, then layers i >=
 *   max_window_layers (default 28; qwen3_moe: 0) -> first_sliding_layer;
 *   gemma2 and gpt_oss pattern 2; gemma3 sliding_window_pattern, default
 *   6.  Sliding layers with sliding_window missing, null or 0 (or qwen's
 *   use_sliding_window false) are refused, as transformers refuses them.
 * Defaults, only where the family's transformers config class defines one
 * and published configs omit the key: num_key_value_heads = heads;
 * tie_word_embeddings false (true for Gemma); gemma3_text vocab_size 262208,
 * max_position_embeddings 131072; head_dim as above (stderr note when a
 * family default other than hidden / heads is taken).  Every other key is
 * required.
 * Not modelled (small or no effect on bytes/FLOPs): biases, q/k norms,
 * Gemma's extra post-norms and softcapping, DeepSeek's multi-token
 * prediction layer, quantization_config (choose --weights instead: import-hf
 * notes on stderr what it says and which --weights matches), except that a
 * MoE config whose modules_to_not_convert names "self_attn" (gpt-oss) gets
 * quantized = "experts": its checkpoint quantizes the routed experts only. */
#ifndef RL_IMPORT_HF_H
#define RL_IMPORT_HF_H

#include <stddef.h>

/* Read `path` and return a malloc'd Lua model spec the caller frees, named
 * `name` (NULL: the file's stem, or its folder's name for "config.json")
 * with `source` as its source field (NULL: "Hugging Face config.json
 * (FOLDER/config.json)", or the file's name: no directories of this
 * machine).  On failure returns NULL with err as "FILE: key 'K': reason"
 * and *oom 1 when memory ran out, 0 for bad input (a file that cannot be
 * read, unknown model_type, a missing or ill-typed key, a spec that fails
 * validation).  note (notelen > 0) gets "" or, when the config has a
 * quantization_config, a sentence naming what it says (quant_method and
 * its bits or format) and the --weights that matches, if one does: the
 * spec has no dtype and runs default to bf16 weights (tester23 F8); and,
 * on a line of its own, what rope_scaling did to max_context when it moved
 * it (tester30 F2), and a torch_dtype (or dtype) torch has no such name for,
 * with the file and key: not read, runs assume bf16 (import_hf.c
 * check_dtype; a value that is not a string is an error). */
char *rl_import_hf(const char *path, const char *name, const char *source, int *oom, char *err,
                   size_t errlen, char *note, size_t notelen);

#endif
