import { lazy, type ReactNode, Suspense } from 'react';
import { BrowserRouter, type RouteObject, useRoutes } from 'react-router';
import { PageSpinner } from '../components/ui/spinner';
import { AdminRoute } from './routes/admin-route';
import { ProtectedRoute } from './routes/protected-route';
import { PublicOnlyRoute } from './routes/public-only-route';

// Every page is its own chunk: the public pages load without the portal, and the admin
// back office loads only for admins.
const LandingPage = lazy(() => import('../features/marketing/components/landing-page'));
const AboutPage = lazy(() => import('../features/marketing/components/about-page'));
const WelcomePage = lazy(() => import('../features/marketing/components/welcome-page'));
const NotFoundPage = lazy(() => import('../features/marketing/components/not-found-page'));
const AuthPage = lazy(() => import('../features/auth/components/auth-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/components/verify-email-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/reset-password-page'));
const PortalLayout = lazy(() => import('./layouts/portal-layout'));
const DashboardPage = lazy(() => import('../features/dashboard/components/dashboard-page'));
const SettingsPage = lazy(() => import('./routes/settings-page'));
const SecretCombinationPage = lazy(
  () => import('../features/recovery-phrase/components/secret-combination-page'),
);
const AdminDashboardPage = lazy(
  () => import('../features/admin-dashboard/components/admin-dashboard-page'),
);

function page(node: ReactNode) {
  return <Suspense fallback={<PageSpinner />}>{node}</Suspense>;
}

const routes: RouteObject[] = [
  { path: '/', element: page(<LandingPage />) },
  { path: '/about', element: page(<AboutPage />) },
  {
    path: '/welcome',
    element: page(
      <PublicOnlyRoute redirectText="Redirecting to dashboard...">
        <WelcomePage />
      </PublicOnlyRoute>,
    ),
  },
  {
    path: '/auth',
    element: page(
      <PublicOnlyRoute>
        <AuthPage />
      </PublicOnlyRoute>,
    ),
  },
  { path: '/verify-email', element: page(<VerifyEmailPage />) },
  { path: '/reset-password', element: page(<ResetPasswordPage />) },
  {
    element: page(
      <ProtectedRoute>
        <PortalLayout />
      </ProtectedRoute>,
    ),
    children: [
      { path: '/dashboard', element: page(<DashboardPage />) },
      { path: '/dashboard/settings', element: page(<SettingsPage />) },
      { path: '/secret-combination', element: page(<SecretCombinationPage />) },
      {
        element: <AdminRoute />,
        children: [{ path: '/dashboard/admin', element: page(<AdminDashboardPage />) }],
      },
    ],
  },
  { path: '*', element: page(<NotFoundPage />) },
];

function AppRoutes() {
  return useRoutes(routes);
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
