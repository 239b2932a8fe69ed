-- A headless Neovim (0.7+) session against `fgraph lsp`: attach the built-in LSP client to a
-- file, ask for its semantic tokens (`textDocument/semanticTokens/full`) and decode them with
-- the legend the server advertised; on Neovim 0.9 and later, also wait for Neovim's own
-- semantic-token highlighter (`vim.lsp.semantic_tokens`) to take them in and read what it
-- holds at a few positions. Writes what came back as JSON to $FGRAPH_NVIM_OUT, which
-- tests/nvim.rs checks.

local bin = os.getenv('FGRAPH_BIN')
local file = os.getenv('FGRAPH_NVIM_FILE')
local out_path = os.getenv('FGRAPH_NVIM_OUT')
local report = { nvim = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) }

local function finish()
  local f = io.open(out_path, 'w')
  f:write(vim.fn.json_encode(report))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('setfiletype fgraph')
  local client_id = vim.lsp.start_client({
    name = 'fgraph',
    cmd = { bin, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
  })
  vim.lsp.buf_attach_client(buf, client_id)
  report.initialized = vim.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c ~= nil and c.server_capabilities ~= nil
      and c.server_capabilities.semanticTokensProvider ~= nil
  end, 20)
  local provider = vim.lsp.get_client_by_id(client_id).server_capabilities.semanticTokensProvider
  local legend = provider.legend
  report.full = provider.full
  report.range = provider.range

  -- The tokens, as the client receives them: five numbers each, relative to the previous.
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) } }
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/semanticTokens/full', params, 10000) or {}
  local tokens = {}
  for _, r in pairs(res) do
    if r.err then report.request_error = tostring(r.err.message) end
    local data = (r.result or {}).data or {}
    local line, col = 0, 0
    for i = 1, #data, 5 do
      if data[i] > 0 then col = 0 end
      line = line + data[i]
      col = col + data[i + 1]
      -- The file is ASCII: UTF-16 columns are byte columns.
      local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ''
      table.insert(tokens, {
        line = line, col = col,
        text = text:sub(col + 1, col + data[i + 2]),
        type = legend.tokenTypes[data[i + 3] + 1],
        modifiers = data[i + 4],
      })
    end
  end
  report.tokens = tokens

  -- Neovim 0.9+: its highlighter requests the tokens itself on attach.
  if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos then
    local probes = {}
    local function at(line, col)
      local found = vim.lsp.semantic_tokens.get_at_pos(buf, line, col) or {}
      return found[1] and found[1].type or nil
    end
    report.highlighter = vim.wait(10000, function() return at(3, 2) ~= nil end, 20)
    for _, p in ipairs({ { 0, 6 }, { 1, 8 }, { 3, 5 }, { 3, 9 }, { 3, 21 }, { 3, 26 } }) do
      table.insert(probes, { line = p[1], col = p[2], type = at(p[1], p[2]) })
    end
    report.probes = probes
    -- What the screen shows: the highlight group of the token under the cursor.
    vim.cmd('redraw')
    if vim.inspect_pos then
      local info = vim.inspect_pos(buf, 3, 9)
      for _, st in ipairs(info.semantic_tokens or {}) do
        local hl = st.opts and st.opts.hl_group
        if hl then
          report.hl_groups = report.hl_groups or {}
          table.insert(report.hl_groups, hl)
        end
      end
    end
  end

  vim.lsp.stop_client(client_id)
end)

if not ok then report.error = tostring(err) end
finish()
