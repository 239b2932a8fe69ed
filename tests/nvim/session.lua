-- A headless Neovim (0.7+) session against `fgraph lsp`, with the built-in LSP client only:
-- start the server, attach it to a broken file, wait for its diagnostics, hover a param,
-- apply the quick fix of a misspelt name, wait for the diagnostics to change, and write what
-- came back as JSON to $FGRAPH_NVIM_OUT. tests/nvim.rs runs it and checks the file.

local bin = os.getenv('FGRAPH_BIN')
local file = os.getenv('FGRAPH_NVIM_FILE')
local out_path = os.getenv('FGRAPH_NVIM_OUT')
local report = { steps = {} }

local function finish()
  local f = io.open(out_path, 'w')
  f:write(vim.fn.json_encode(report))
  f:close()
  vim.cmd('qa!')
end

local function step(name) table.insert(report.steps, name) end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'fgraph',
    cmd = { bin, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
  })
  report.client_started = client_id ~= nil
  step('start_client')
  vim.lsp.buf_attach_client(buf, client_id)
  step('attached')

  -- Diagnostics arrive through the default publishDiagnostics handler.
  report.got_diagnostics = vim.wait(10000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 20)
  local diags = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(diags, {
      lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
      message = d.message, code = lsp.code or d.code, source = d.source,
    })
  end
  table.sort(diags, function(a, b) return a.lnum < b.lnum end)
  report.diagnostics = diags
  step('diagnostics')

  -- Hover on the use of `hidden` (line 4, 1-based; column 18, 0-based).
  vim.api.nvim_win_set_cursor(0, { 4, 18 })
  local params = vim.lsp.util.make_position_params()
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 5000) or {}
  for _, res in pairs(hover) do
    if res.result and res.result.contents then
      report.hover = res.result.contents.value
    end
  end
  step('hover')

  -- The quick fix for `yy`, applied as the editor applies a code action's edit.
  vim.api.nvim_win_set_cursor(0, { 7, 27 })
  local cparams = vim.lsp.util.make_range_params()
  cparams.context = { diagnostics = {} }
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', cparams, 5000) or {}
  for _, res in pairs(actions) do
    for _, a in ipairs(res.result or {}) do
      if a.kind == 'quickfix' and a.edit and report.applied == nil then
        report.applied = a.title
        vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
      end
    end
  end
  report.line_after_fix = vim.api.nvim_buf_get_lines(buf, 6, 7, false)[1]
  step('code_action')

  -- After the edit the server republishes: only the warning is left.
  report.fixed = vim.wait(10000, function()
    local ds = vim.diagnostic.get(buf)
    return #ds == 1 and ds[1].severity == vim.diagnostic.severity.WARN
  end, 20)
  step('republished')

  vim.lsp.stop_client(client_id)
end)

if not ok then report.error = tostring(err) end
finish()
