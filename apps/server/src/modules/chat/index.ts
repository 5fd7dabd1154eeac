/** Support chat's front door (see ../README.md). */
export { adminChatRoutes, chatRoutes } from './chat.routes';
export { type ChatService, createChatService } from './chat.service';
