// The page-tools reference example (the delete chip's label a getter naming the task), as an external file (the CSP forbids inline script).
  const board = [
    { id: 't1', title: 'Draft launch email', status: 'todo' },
    { id: 't2', title: 'Book the venue', status: 'doing' },
  ];

  function render() { /* your rendering */ }

  // The arguments of each tool's latest call, so a confirmLabel getter can name its target.
  const lastArgs = {};
  document.addEventListener('wave-tool-call-requested', (e) => { lastArgs[e.detail.name] = e.detail.args; });

  function publishState(widget) {
    widget.setContext({
      board: 'Launch',
      tasks: board.map(t => ({ id: t.id, title: t.title, status: t.status })),
    });
  }

  function whenWidgetReady(callback) {
    const start = Date.now();
    (function poll() {
      const widget = window.VAWaveWidget;
      if (widget && typeof widget.registerTool === 'function') return callback(widget);
      if (Date.now() - start > 10000) return;
      setTimeout(poll, 100);
    })();
  }

  whenWidgetReady((widget) => {
    widget.registerTools({
      get_tasks: {
        description: 'List every task on the board with its id, title and status.',
        parameters: { type: 'object', properties: {} },
        handler: () => ({ success: true, tasks: board }),
        summary: (args, result) => `Read ${result.tasks.length} tasks`,
      },

      add_task: {
        description: 'Add a new task to the board. Returns the created task.',
        parameters: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'Short task title' },
            status: { type: 'string', enum: ['todo', 'doing', 'done'] },
          },
          required: ['title'],
        },
        runningLabel: 'Adding task…',
        handler: ({ title, status }) => {
          const task = { id: 't' + (board.length + 1), title, status: status || 'todo' };
          board.push(task);
          render();
          publishState(widget);
          return { success: true, task };
        },
        summary: (args, result) => `Added “${result.task.title}”`,
      },

      delete_task: {
        description: 'Permanently delete a task by id.',
        parameters: {
          type: 'object',
          properties: { task_id: { type: 'string' } },
          required: ['task_id'],
        },
        confirm: true,
        tier3: true,
        // Read when the chip is shown: name the task this call would delete.
        get confirmLabel() {
          const task = board.find(t => t.id === lastArgs.delete_task?.task_id);
          return task ? `Delete task “${task.title}”?` : 'Delete this task?';
        },
        handler: ({ task_id }) => {
          const i = board.findIndex(t => t.id === task_id);
          if (i === -1) return { success: false, error: 'No task with that id' };
          const [removed] = board.splice(i, 1);
          render();
          publishState(widget);
          return { success: true, deleted: removed.title };
        },
        summary: (args, result) => `Deleted “${result.deleted}”`,
      },
    });

    publishState(widget);
  });
